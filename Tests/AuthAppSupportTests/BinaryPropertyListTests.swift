import AuthCore
import Foundation
import Testing

@testable import AuthAppSupport

@Suite("The keyed-archive reader against hostile property lists")
struct BinaryPropertyListTests {
    /// Hostile property lists, kept as fuzz seeds in Fuzz/Corpus/keyed-archive.
    private static func seed(_ name: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fuzz/Corpus/keyed-archive/\(name)"))
    }

    private static func corruption(_ data: Data) -> AuthError? {
        do {
            _ = try BinaryPropertyList.decode(data)
            return nil
        } catch {
            return error as? AuthError
        }
    }

    @Test("A trailer whose table offset is Int.max is storage_corrupted, not an arithmetic trap")
    func overflowingTrailer() throws {
        let error = Self.corruption(try Self.seed("bplist-overflow.bin"))
        #expect(error?.code == .storageCorrupted)
        #expect(error?.message.contains("inconsistent trailer") == true)
    }

    @Test("One large object referenced 49,000 times (tens of gigabytes decoded) is refused within the decoded-bytes budget")
    func amplification() throws {
        let started = ContinuousClock.now
        let error = Self.corruption(try Self.seed("bplist-amplify.bin"))
        #expect(error?.code == .storageCorrupted)
        #expect(error?.message.contains("more decoded data than a session holds") == true)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("Offsets and lengths near Int.max anywhere in the trailer are refused")
    func extremeTrailers() throws {
        for field in [8, 16, 24] {
            var bytes = [UInt8]("bplist00".utf8) + [0x08] + [UInt8](repeating: 0, count: 31)  // one object: false
            var trailer = [UInt8](repeating: 0, count: 32)
            trailer[6] = 1
            trailer[7] = 1
            trailer[15] = 1  // objectCount = 1
            trailer[31] = 9  // tableOffset = 9 (past the object)
            for index in field..<field + 8 { trailer[index] = 0xFF }
            trailer[field] = 0x7F
            bytes = Array(bytes.prefix(9)) + [8] + [UInt8](repeating: 0, count: 30) + trailer
            #expect(Self.corruption(Data(bytes))?.code == .storageCorrupted, "field at \(field)")
        }
    }
}
