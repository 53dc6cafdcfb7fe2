import AuthCore
import AuthFileStorage
import Foundation
import Testing

/// Every credential file this package has written, as it wrote it, still reads in this version; a file from a newer
/// version is refused, never deleted; and a process killed at any point of a write leaves the old credential or the
/// new one, never neither.
@Suite("FileTokenStorage: past formats and writes killed at every step")
struct StoredFormatTests {
    static let key = StorageKey(providerID: "oidc", issuer: "https://idp.example.test", clientID: "app", account: "alice")

    /// The key part of every record, as `Record.key` has always been encoded.
    static let keyJSON = #""key":{"account":"alice","clientID":"app","issuer":"https:\/\/idp.example.test","providerID":"oidc"}"#

    /// The credential part of a file, one per format this package has written (the fields each release added; every
    /// file stores dates as seconds since 1970, keys sorted).
    static let formats: [(name: String, credential: String)] = [
        // 348e8e6, the first release: eleven fields.
        (
            "1: the first eleven fields",
            #"{"accessToken":"at-1","clientID":"app","expiresAt":1767229200,"idToken":"h.p.s","issuer":"https:\/\/idp.example.test","providerID":"oidc","refreshToken":"rt-1","scopes":["openid","offline_access"],"subject":"alice","tokenType":"Bearer","updatedAt":1767225600}"#
        ),
        // 0a126f8: annotations.
        (
            "1: with annotations",
            #"{"accessToken":"at-1","annotations":{"grab.verified":"1"},"clientID":"app","expiresAt":1767229200,"idToken":"h.p.s","issuer":"https:\/\/idp.example.test","providerID":"oidc","refreshToken":"rt-1","scopes":["openid","offline_access"],"subject":"alice","tokenType":"Bearer","updatedAt":1767225600}"#
        ),
        // 539d0b6: a DPoP key (the private scalar, base64url) with a DPoP token.
        (
            "1: with a DPoP key",
            #"{"accessToken":"at-1","clientID":"app","dpopKey":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE","expiresAt":1767229200,"idToken":"h.p.s","issuer":"https:\/\/idp.example.test","providerID":"oidc","refreshToken":"rt-1","scopes":["openid"],"subject":"alice","tokenType":"DPoP","updatedAt":1767225600}"#
        ),
        // b1008e4: an account name.
        (
            "1: with an account name",
            #"{"accessToken":"at-1","accountName":"alice","clientID":"app","expiresAt":1767229200,"issuer":"https:\/\/idp.example.test","providerID":"oidc","refreshToken":"rt-1","scopes":[],"tokenType":"Bearer","updatedAt":1767225600}"#
        ),
        // c7dada5: a profile.
        (
            "1: with a profile",
            #"{"accessToken":"at-1","clientID":"app","expiresAt":1767229200,"idToken":"h.p.s","issuer":"https:\/\/idp.example.test","profile":{"login":"alice"},"providerID":"oidc","refreshToken":"rt-1","scopes":["openid"],"subject":"alice","tokenType":"Bearer","updatedAt":1767225600}"#
        ),
        // Format 2 (this version): an explicit format and a lost refresh answer's mark.
        (
            "2: versioned, with a lost refresh answer marked",
            #"{"accessToken":"at-1","clientID":"app","expiresAt":1767229200,"format":2,"idToken":"h.p.s","issuer":"https:\/\/idp.example.test","providerID":"oidc","refreshPendingSince":1767226000,"refreshToken":"rt-1","scopes":["openid"],"subject":"alice","tokenType":"Bearer","updatedAt":1767225600}"#
        )
    ]

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("auth-formats-\(UUID().uuidString)")
    }

    private func write(_ credentialJSON: String, in directory: URL) throws -> FileTokenStorage {
        let storage = FileTokenStorage(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\(Self.keyJSON),\"credential\":\(credentialJSON)}".utf8).write(to: storage.fileURL(for: Self.key))
        return storage
    }

    @Test("Every format this package has written reads back, with its tokens", arguments: formats.map(\.name))
    func pastFormatsRead(name: String) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try #require(Self.formats.first { $0.name == name }).credential
        let storage = try write(json, in: directory)

        let credential = try #require(try await storage.credential(for: Self.key))
        #expect(credential.accessToken == Secret("at-1"))
        #expect(credential.refreshToken == Secret("rt-1"))
        #expect(credential.updatedAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(credential.expiresAt == Date(timeIntervalSince1970: 1_767_229_200))
        #expect(credential.storageKey == Self.key)
        #expect(try await storage.storedKeys() == [Self.key])
        // Written again by this version, it carries the current format and reads back equal.
        try await storage.store(credential, for: Self.key)
        let rewritten = try String(contentsOf: storage.fileURL(for: Self.key), encoding: .utf8)
        #expect(rewritten.contains(#""format":\#(Credential.currentFormat)"#) == (credential.format != nil))
        #expect(try await storage.credential(for: Self.key) == credential)
    }

    @Test("A file written by a newer version is refused as storage_corrupted and left on disk")
    func newerFormatRefused() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let future = Self.formats.last!.credential.replacingOccurrences(of: #""format":2"#, with: #""format":3,"somethingNew":{"a":1}"#)
        let storage = try write(future, in: directory)

        let error = await #expect(throws: AuthError.self) { _ = try await storage.credential(for: Self.key) }
        #expect(error?.code == .storageCorrupted)
        #expect(error?.message.contains("newer version") == true)
        #expect(FileManager.default.fileExists(atPath: storage.fileURL(for: Self.key).path))
    }

    private static func credential(_ token: String) -> Credential {
        Credential(
            providerID: "oidc", issuer: "https://idp.example.test", clientID: "app", subject: "alice", accessToken: Secret("at-\(token)"),
            refreshToken: Secret("rt-\(token)"), expiresAt: Date(timeIntervalSince1970: 1_767_229_200), scopes: ["openid"],
            updatedAt: Date(timeIntervalSince1970: 1_767_225_600)
        )
    }

    @Test("Killed at any step of a write, the file store holds the old credential or the new one", arguments: [false, true])
    func killedAtEveryStep(encrypted: Bool) async throws {
        let directory = temporaryDirectory()
        let snapshots = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: snapshots)
        }
        let encryptionKey = encrypted ? Data(repeating: 7, count: 32) : nil
        let storage = try FileTokenStorage(directory: directory, encryptionKey: encryptionKey)
        let (old, new) = (Self.credential("old"), Self.credential("new"))
        try await storage.store(old, for: Self.key)

        // At each step, the directory is copied as it is: exactly what a process killed there leaves.
        let taken = LockedValue<[AtomicFile.Step]>([])
        await storage.observeWrites { step in
            let copy = snapshots.appendingPathComponent("\(step)")
            try? FileManager.default.copyItem(at: directory, to: copy)
            taken.withLock { $0.append(step) }
        }
        try await storage.store(new, for: Self.key)
        #expect(taken.withLock { $0 } == AtomicFile.Step.allCases)

        var seen: [AtomicFile.Step: String] = [:]
        for step in AtomicFile.Step.allCases {
            let left = try FileTokenStorage(directory: snapshots.appendingPathComponent("\(step)"), encryptionKey: encryptionKey)
            let read = try #require(try await left.credential(for: Self.key), "nothing readable after a kill at \(step)")
            #expect(read == old || read == new, "a kill at \(step) left neither credential")
            #expect(try await left.storedKeys() == [Self.key], "a kill at \(step) left a second account (its temporary file)")
            seen[step] = read == new ? "new" : "old"
        }
        // Before the rename the old credential, from it the new: the test fails if the write stops being atomic.
        #expect(seen == [.temporaryCreated: "old", .halfWritten: "old", .written: "old", .synced: "old", .renamed: "new"])
    }

    @Test("The temporary files a killed writer left are removed by a later write once they are old, never while young")
    func staleTemporariesSwept() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileTokenStorage(directory: directory)
        try await storage.store(Self.credential("old"), for: Self.key)
        let target = storage.fileURL(for: Self.key)
        let stale = URL(fileURLWithPath: target.path + ".tmp-stale")
        let young = URL(fileURLWithPath: target.path + ".tmp-young")
        try Data("{\"half".utf8).write(to: stale)
        try Data("{\"half".utf8).write(to: young)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale.path)

        try await storage.store(Self.credential("new"), for: Self.key)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: young.path))
        #expect(try await storage.credential(for: Self.key)?.accessToken == Secret("at-new"))
    }
}
