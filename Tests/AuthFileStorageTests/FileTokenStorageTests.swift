import AuthCore
import AuthFileStorage
import Foundation
import Testing

@Suite("FileTokenStorage")
struct FileTokenStorageTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("auth-storage-\(UUID().uuidString)")
    }

    private func credential(subject: String, token: String = "access-1") -> Credential {
        Credential(
            providerID: "plain",
            issuer: "https://idp.example.test",
            clientID: "abc",
            subject: subject,
            accessToken: Secret(token),
            refreshToken: Secret("refresh-\(token)"),
            idToken: Secret("header.payload.signature"),
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
            scopes: ["openid", "email"],
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
    }

    private func mode(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("A credential round-trips through a 0600 file in a 0700 directory")
    func roundTrip() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileTokenStorage(directory: directory)
        let original = credential(subject: "alice")
        try await storage.store(original, for: original.storageKey)

        let loaded = try await FileTokenStorage(directory: directory).credential(for: original.storageKey)
        #expect(loaded == original)
        #expect(try await storage.storedKeys() == [original.storageKey])
        #expect(try mode(of: storage.fileURL(for: original.storageKey).path) == 0o600)
        #expect(try mode(of: directory.path) == 0o700)
        // The file name reveals nothing about the account.
        #expect(!storage.fileURL(for: original.storageKey).lastPathComponent.contains("alice"))
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test("Replacing and removing work per account")
    func replaceAndRemove() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileTokenStorage(directory: directory)
        let alice = credential(subject: "alice")
        let bob = credential(subject: "bob")
        try await storage.store(alice, for: alice.storageKey)
        try await storage.store(bob, for: bob.storageKey)
        let newer = credential(subject: "alice", token: "access-2")
        try await storage.store(newer, for: alice.storageKey)
        #expect(try await storage.credential(for: alice.storageKey)?.accessToken == Secret("access-2"))

        try await storage.removeCredential(for: alice.storageKey)
        try await storage.removeCredential(for: alice.storageKey)  // removing twice is fine
        #expect(try await storage.credential(for: alice.storageKey) == nil)
        #expect(try await storage.credential(for: bob.storageKey) == bob)
    }

    @Test("A corrupted file is storage_corrupted for that account only")
    func corruptedFile() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileTokenStorage(directory: directory)
        let alice = credential(subject: "alice")
        let bob = credential(subject: "bob")
        try await storage.store(alice, for: alice.storageKey)
        try await storage.store(bob, for: bob.storageKey)
        let file = storage.fileURL(for: alice.storageKey)
        let data = try Data(contentsOf: file)
        try data.prefix(data.count / 2).write(to: file)

        let error = await #expect(throws: AuthError.self) { try await storage.credential(for: alice.storageKey) }
        #expect(error?.code == .storageCorrupted)
        #expect(try await storage.credential(for: bob.storageKey) == bob)
        #expect(try await storage.storedKeys() == [bob.storageKey])
    }
}

@Suite("FileTokenStorage durability and encryption")
struct FileTokenStorageDurabilityTests {
    private func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("auth-durability-\(UUID().uuidString)")
    }

    private func credential(_ account: String, version: Int) -> Credential {
        Credential(
            providerID: "plain", issuer: "https://idp.example.test", clientID: "abc", subject: account,
            accessToken: Secret("access-\(account)-\(version)"), refreshToken: Secret("refresh-\(account)-\(version)"),
            updatedAt: Date(timeIntervalSince1970: Double(version))
        )
    }

    @Test("100 tasks × 100 writes lose no update: every account's last write is readable")
    func concurrentWriters() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileTokenStorage(directory: folder)
        let shared = credential("shared", version: 0).storageKey
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<100 {
                group.addTask {
                    for version in 0..<100 {
                        let own = credential("account-\(task)", version: version)
                        try await storage.store(own, for: own.storageKey)
                        if version % 10 == 0 {
                            let next = credential("shared", version: task * 100 + version)
                            try await storage.store(next, for: shared)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for task in 0..<100 {
            let key = credential("account-\(task)", version: 0).storageKey
            #expect(try await storage.credential(for: key)?.accessToken == Secret("access-account-\(task)-99"))
        }
        let sharedValue = try #require(try await storage.credential(for: shared))
        #expect(sharedValue.accessToken.reveal().hasPrefix("access-shared-"))
        #expect(try await storage.storedKeys().count == 101)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 101)
    }

    @Test("A writer that dies mid-write leaves the previous value intact")
    func interruptedWrite() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileTokenStorage(directory: folder)
        let original = credential("alice", version: 1)
        try await storage.store(original, for: original.storageKey)
        // Simulate a crash after the temporary file was partly written, before the rename.
        let target = storage.fileURL(for: original.storageKey)
        let replacement = try JSONEncoder().encode(credential("alice", version: 2))
        try replacement.prefix(replacement.count / 3).write(to: URL(fileURLWithPath: target.path + ".tmp-crashed"))

        #expect(try await storage.credential(for: original.storageKey) == original)
        #expect(try await storage.storedKeys() == [original.storageKey])
        // The next write succeeds and replaces the value.
        let newer = credential("alice", version: 3)
        try await storage.store(newer, for: newer.storageKey)
        #expect(try await storage.credential(for: original.storageKey) == newer)
    }

    @Test("Encrypted files round-trip, hide the tokens, and refuse the wrong key or a swapped file")
    func encryption() async throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = Data((0..<32).map { UInt8($0) })
        let storage = try FileTokenStorage(directory: folder, encryptionKey: key)
        let alice = credential("alice", version: 1)
        let bob = credential("bob", version: 1)
        try await storage.store(alice, for: alice.storageKey)
        try await storage.store(bob, for: bob.storageKey)
        #expect(try await storage.credential(for: alice.storageKey) == alice)
        #expect(Set(try await storage.storedKeys()) == [alice.storageKey, bob.storageKey])

        let raw = try Data(contentsOf: storage.fileURL(for: alice.storageKey))
        #expect(raw.range(of: Data("access-alice-1".utf8)) == nil)

        let wrongKey = try FileTokenStorage(directory: folder, encryptionKey: Data(repeating: 7, count: 32))
        let wrong = await #expect(throws: AuthError.self) { try await wrongKey.credential(for: alice.storageKey) }
        #expect(wrong?.code == .storageCorrupted)

        // Copying Bob's file over Alice's does not make Bob's tokens Alice's.
        try FileManager.default.removeItem(at: storage.fileURL(for: alice.storageKey))
        try FileManager.default.copyItem(at: storage.fileURL(for: bob.storageKey), to: storage.fileURL(for: alice.storageKey))
        let swapped = await #expect(throws: AuthError.self) { try await storage.credential(for: alice.storageKey) }
        #expect(swapped?.code == .storageCorrupted)

        #expect(throws: AuthError.self) { try FileTokenStorage(directory: folder, encryptionKey: Data(count: 16)) }
    }
}
