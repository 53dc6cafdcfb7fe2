import AuthCore
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
