import AuthCore
package import Foundation

/// A reader of Apple's binary property lists (`bplist00`), the format `UserDefaults` and `NSKeyedArchiver` write, so
/// sessions vendor SDKs archived are read the same way on every platform (Foundation's own reader hides archive
/// references behind private types that differ between Darwin and Linux).
///
/// Built for hostile input (another app can plant the item a vendor SDK reads): every offset, length and reference is
/// bounds-checked without arithmetic that could overflow, nesting is capped, and one decode may visit a bounded number
/// of objects and produce a bounded number of bytes (references may repeat, so a small file could otherwise expand
/// into gigabytes). A corrupted or hostile store is a `storage_corrupted` error, never a crash.
package enum BinaryPropertyList {
    /// A decoded object.
    package indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Date)
        case data(Data)
        case string(String)
        /// A keyed archive's reference to an entry of `$objects`.
        case uid(Int)
        case array([Value])
        case dictionary([String: Value])

        /// The string, if this is one.
        package var string: String? { if case .string(let text) = self { text } else { nil } }
        /// The dictionary, if this is one.
        package var dictionary: [String: Value]? { if case .dictionary(let entries) = self { entries } else { nil } }
        /// The array, if this is one.
        package var array: [Value]? { if case .array(let items) = self { items } else { nil } }
        /// The number, for an integer or a real.
        package var number: Double? {
            switch self {
            case .integer(let value): Double(value)
            case .real(let value): value
            default: nil
            }
        }
    }

    private static let maximumDepth = 32
    /// How many objects one decode may visit: references may repeat, so without a budget a small file could expand
    /// exponentially.
    private static let maximumVisits = 50_000
    /// How many bytes of data and text one decode may produce (a vendor's session is a few kilobytes).
    private static let maximumDecodedBytes = 8 << 20

    /// What one decode may still spend.
    fileprivate struct Budget {
        var visits = BinaryPropertyList.maximumVisits
        var bytes = BinaryPropertyList.maximumDecodedBytes

        mutating func visit() throws {
            visits -= 1
            guard visits >= 0 else { throw BinaryPropertyList.corrupted("too many objects") }
        }

        mutating func spend(_ count: Int) throws {
            guard count <= bytes else { throw BinaryPropertyList.corrupted("more decoded data than a session holds") }
            bytes -= count
        }
    }

    /// Decodes `data`.
    ///
    /// - Throws: `storage_corrupted` for anything that is not a well-formed binary property list.
    package static func decode(_ data: Data) throws -> Value {
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw corrupted("no bplist00 header") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = try integer(bytes, at: trailer + 8, size: 8)
        let topObject = try integer(bytes, at: trailer + 16, size: 8)
        let tableOffset = try integer(bytes, at: trailer + 24, size: 8)
        // Each bound is checked before it is used in arithmetic: `tableOffset` may be anything up to `Int.max`.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, objectCount < bytes.count,
            topObject < objectCount, tableOffset >= 8, tableOffset <= trailer,
            objectCount <= (trailer - tableOffset) / offsetSize
        else { throw corrupted("an inconsistent trailer") }
        let reader = Reader(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objectCount,
            tableOffset: tableOffset, objectsEnd: tableOffset)
        var budget = Budget()
        return try reader.object(topObject, depth: 0, budget: &budget)
    }

    fileprivate static func corrupted(_ what: String) -> AuthError {
        AuthError(.storageCorrupted, "A stored property list is damaged (\(what)).")
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, within `Int`.
    fileprivate static func integer(_ bytes: [UInt8], at offset: Int, size: Int) throws -> Int {
        guard offset >= 0, size >= 0, size <= 8, offset <= bytes.count - size else { throw corrupted("a field out of bounds") }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        guard value <= UInt64(Int.max) else { throw corrupted("an integer out of range") }
        return Int(value)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let tableOffset: Int
        let objectsEnd: Int

        func object(_ index: Int, depth: Int, budget: inout Budget) throws -> Value {
            guard depth < BinaryPropertyList.maximumDepth else { throw BinaryPropertyList.corrupted("nesting too deep") }
            try budget.visit()
            guard index >= 0, index < objectCount else { throw BinaryPropertyList.corrupted("a reference out of range") }
            let start = try BinaryPropertyList.integer(bytes, at: tableOffset + index * offsetSize, size: offsetSize)
            guard start >= 8, start < objectsEnd else { throw BinaryPropertyList.corrupted("an object offset out of range") }
            let marker = bytes[start]
            let kind = marker >> 4
            let info = Int(marker & 0x0F)
            switch kind {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw BinaryPropertyList.corrupted("an unknown marker")
                }
            case 0x1:
                let size = 1 << info
                guard size <= 8 else { throw BinaryPropertyList.corrupted("an integer wider than 64 bits") }
                return .integer(try signed(at: start + 1, size: size))
            case 0x2:
                return .real(try real(at: start + 1, size: 1 << info))
            case 0x3:
                guard marker == 0x33 else { throw BinaryPropertyList.corrupted("an unknown date marker") }
                return .date(Date(timeIntervalSinceReferenceDate: try real(at: start + 1, size: 8)))
            case 0x4:
                let (count, body) = try length(info, at: start)
                try budget.spend(count)
                return .data(Data(try slice(body, count)))
            case 0x5:
                let (count, body) = try length(info, at: start)
                try budget.spend(count)
                guard let text = String(bytes: try slice(body, count), encoding: .ascii) else { throw BinaryPropertyList.corrupted("a string that is not ASCII") }
                return .string(text)
            case 0x6:
                let (count, body) = try length(info, at: start)
                try budget.spend(count * 2)
                let raw = try slice(body, count * 2)
                let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[raw.startIndex + $0]) << 8 | UInt16(raw[raw.startIndex + $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(Int(try signed(at: start + 1, size: info + 1)))
            case 0xA:
                let (count, body) = try length(info, at: start)
                try budget.spend(count * MemoryLayout<Value>.stride)
                var items: [Value] = []
                for reference in try references(body, count) { items.append(try object(reference, depth: depth + 1, budget: &budget)) }
                return .array(items)
            case 0xD:
                let (count, body) = try length(info, at: start)
                try budget.spend(count * MemoryLayout<Value>.stride)
                let keys = try references(body, count)
                let values = try references(body + count * referenceSize, count)
                var entries: [String: Value] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try object(key, depth: depth + 1, budget: &budget) else {
                        throw BinaryPropertyList.corrupted("a dictionary key that is not a string")
                    }
                    entries[name] = try object(value, depth: depth + 1, budget: &budget)
                }
                return .dictionary(entries)
            default:
                throw BinaryPropertyList.corrupted("an unsupported object type")
            }
        }

        /// The element count of a data, string or collection object, and where its body starts.
        private func length(_ info: Int, at start: Int) throws -> (Int, Int) {
            guard info == 0x0F else { return (info, start + 1) }
            guard start + 1 < objectsEnd, bytes[start + 1] >> 4 == 0x1 else { throw BinaryPropertyList.corrupted("a bad length") }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            let count = try BinaryPropertyList.integer(bytes, at: start + 2, size: min(size, 8))
            guard size <= 8, count <= bytes.count else { throw BinaryPropertyList.corrupted("a length out of range") }
            return (count, start + 2 + size)
        }

        private func slice(_ start: Int, _ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, start + count <= objectsEnd else { throw BinaryPropertyList.corrupted("an object past its end") }
            return bytes[start..<start + count]
        }

        private func references(_ start: Int, _ count: Int) throws -> [Int] {
            guard count >= 0, count <= objectCount, start + count * referenceSize <= objectsEnd else { throw BinaryPropertyList.corrupted("references past the end") }
            return try (0..<count).map { try BinaryPropertyList.integer(bytes, at: start + $0 * referenceSize, size: referenceSize) }
        }

        private func signed(at offset: Int, size: Int) throws -> Int64 {
            guard size >= 1, size <= 8, offset + size <= objectsEnd else { throw BinaryPropertyList.corrupted("an integer past the end") }
            var value: UInt64 = 0
            for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
            // Only 8-byte integers are signed in this format; shorter ones are unsigned.
            return size == 8 ? Int64(bitPattern: value) : Int64(value)
        }

        private func real(at offset: Int, size: Int) throws -> Double {
            guard offset + size <= objectsEnd else { throw BinaryPropertyList.corrupted("a number past the end") }
            var value: UInt64 = 0
            for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
            switch size {
            case 4: return Double(Float(bitPattern: UInt32(value)))
            case 8: return Double(bitPattern: value)
            default: throw BinaryPropertyList.corrupted("a real of \(size) bytes")
            }
        }
    }
}

/// An `NSKeyedArchiver` archive read through ``BinaryPropertyList``: an archived object's fields by key, nested
/// objects included.
package struct KeyedArchive: Sendable {
    /// The object's class name as archived (`Module.Class` for Swift classes, the bare name for Objective-C ones).
    package let className: String?
    private let objects: [BinaryPropertyList.Value]
    private let fields: [String: BinaryPropertyList.Value]

    /// Reads the archive in `data`; its root object.
    ///
    /// - Throws: `storage_corrupted` when it is not a keyed archive.
    package init(_ data: Data) throws {
        guard let top = try BinaryPropertyList.decode(data).dictionary, top["$archiver"]?.string == "NSKeyedArchiver",
            let objects = top["$objects"]?.array, case .uid(let rootIndex)? = top["$top"]?.dictionary?["root"],
            let archive = KeyedArchive(objects: objects, index: rootIndex)
        else { throw BinaryPropertyList.corrupted("not a keyed archive") }
        self = archive
    }

    private init?(objects: [BinaryPropertyList.Value], index: Int) {
        guard objects.indices.contains(index), let fields = objects[index].dictionary else { return nil }
        self.objects = objects
        self.fields = fields
        if case .uid(let classIndex)? = fields["$class"], objects.indices.contains(classIndex) {
            className = objects[classIndex].dictionary?["$classname"]?.string
        } else {
            className = nil
        }
    }

    private func resolved(_ key: String) -> BinaryPropertyList.Value? {
        guard let value = fields[key] else { return nil }
        guard case .uid(let index) = value else { return value }
        guard objects.indices.contains(index) else { return nil }
        return objects[index].string == "$null" ? nil : objects[index]
    }

    /// The string archived under `key` (`encode(_:forKey:)` of a `String`), or `nil`.
    package func string(_ key: String) -> String? { resolved(key)?.string }

    /// The date archived under `key` (an `NSDate`: `NS.time` seconds since 2001), or `nil`.
    package func date(_ key: String) -> Date? {
        guard let time = resolved(key)?.dictionary?["NS.time"]?.number else { return nil }
        return Date(timeIntervalSinceReferenceDate: time)
    }

    /// The object archived under `key` (an archived class instance), or `nil`.
    package func object(_ key: String) -> KeyedArchive? {
        guard case .uid(let index)? = fields[key], objects.indices.contains(index), objects[index].string != "$null" else { return nil }
        return KeyedArchive(objects: objects, index: index)
    }
}
