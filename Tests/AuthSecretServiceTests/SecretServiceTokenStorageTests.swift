import AuthCore
import Foundation
import Testing

@testable import AuthSecretService

@Suite("SecretServiceTokenStorage")
struct SecretServiceTokenStorageTests {
    private func credential(subject: String, refresh: String = "refresh-token-value-1") -> Credential {
        Credential(
            providerID: "oidc",
            issuer: "https://idp.example.test",
            clientID: "cli",
            subject: subject,
            accessToken: Secret("access-token-value-1"),
            refreshToken: Secret(refresh),
            idToken: Secret("header.payload.signature"),
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
            scopes: ["openid", "email"],
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
    }

    private func storage(_ fake: FakeSecretTool, timeout: Duration = .seconds(10)) -> SecretServiceTokenStorage {
        SecretServiceTokenStorage(
            application: "test-app",
            lockDirectory: fake.directory.appendingPathComponent("locks"),
            lockTimeout: .seconds(5),
            tool: SecretTool(executable: fake.executable, timeout: timeout)
        )
    }

    @Test("A credential round-trips with its attributes; the secret goes through the pipe, never onto the command line")
    func roundTrip() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let storage = storage(fake)
        let alice = credential(subject: "alice")
        try await storage.store(alice, for: alice.storageKey)
        #expect(try await storage.credential(for: alice.storageKey) == alice)
        #expect(try await storage.storedKeys() == [alice.storageKey])
        #expect(fake.argumentLog.contains(#""application", "test-app""#))
        #expect(fake.argumentLog.contains(#""account", "alice""#))
        #expect(fake.argumentLog.contains(#""issuer", "https://idp.example.test""#))
        #expect(!fake.argumentLog.contains("refresh-token-value-1"))
        #expect(!fake.argumentLog.contains("access-token-value-1"))
        // One line of JSON: `secret-tool search` lists a secret on one line.
        #expect(fake.storedSecrets.count == 1 && !fake.storedSecrets[0].contains("\n"))
    }

    @Test("Two accounts are two items; removing one leaves the other; removing a missing one is not an error")
    func twoAccounts() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let storage = storage(fake)
        let alice = credential(subject: "alice")
        let bob = credential(subject: "bob", refresh: "refresh-bob")
        try await storage.store(alice, for: alice.storageKey)
        try await storage.store(bob, for: bob.storageKey)
        #expect(Set(try await storage.storedKeys()) == [alice.storageKey, bob.storageKey])
        try await storage.removeCredential(for: alice.storageKey)
        try await storage.removeCredential(for: alice.storageKey)
        #expect(try await storage.credential(for: alice.storageKey) == nil)
        #expect(try await storage.credential(for: bob.storageKey) == bob)
    }

    @Test("No session bus: storage_unavailable saying so, nothing stored")
    func noBus() async throws {
        let fake = try FakeSecretTool(.noBus)
        defer { fake.remove() }
        let alice = credential(subject: "alice")
        let error = await #expect(throws: AuthError.self) { try await storage(fake).store(alice, for: alice.storageKey) }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.message.contains("Cannot autolaunch D-Bus") == true)
        #expect(fake.storedSecrets.isEmpty)
        let probe = await #expect(throws: AuthError.self) { try await storage(fake).checkAvailable() }
        #expect(probe?.code == .storageUnavailable)
    }

    @Test("A service that never answers (a locked collection waiting for a prompt) is storage_unavailable after the timeout")
    func hang() async throws {
        let fake = try FakeSecretTool(.hang)
        defer { fake.remove() }
        let alice = credential(subject: "alice")
        let started = ContinuousClock.now
        let error = await #expect(throws: AuthError.self) {
            try await storage(fake, timeout: .milliseconds(500)).credential(for: alice.storageKey)
        }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.message.contains("locked") == true)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("A locked item (listed without its secret) is storage_unavailable, not a missing credential")
    func locked() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let alice = credential(subject: "alice")
        try await storage(fake).store(alice, for: alice.storageKey)
        let lockedFake = FakeSecretTool(directory: fake.directory, mode: .locked)
        let error = await #expect(throws: AuthError.self) { try await storage(lockedFake).credential(for: alice.storageKey) }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.message.contains("locked") == true)
    }

    @Test("An item that is not a credential is storage_corrupted; another account's credential under a key too")
    func corrupted() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let storage = storage(fake)
        let alice = credential(subject: "alice")
        try await storage.tool.store(Data("not json".utf8), label: "x", attributes: try storage.attributes(for: alice.storageKey))
        let error = await #expect(throws: AuthError.self) { try await storage.credential(for: alice.storageKey) }
        #expect(error?.code == .storageCorrupted)
        #expect(error?.message.contains("not json") == false)
        let bob = credential(subject: "bob")
        try await storage.tool.store(try SecretServiceTokenStorage.encoder.encode(bob), label: "x", attributes: try storage.attributes(for: alice.storageKey))
        let swapped = await #expect(throws: AuthError.self) { try await storage.credential(for: alice.storageKey) }
        #expect(swapped?.code == .storageCorrupted)
    }

    @Test("A subject with a line break is refused before anything is stored (it would split secret-tool's listing)")
    func controlCharacters() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let forged = credential(subject: "alice\nattribute.account = mallory")
        let error = await #expect(throws: AuthError.self) { try await storage(fake).store(forged, for: forged.storageKey) }
        #expect(error?.code == .storageFailed)
        #expect(fake.storedSecrets.isEmpty)
        #expect(fake.argumentLog.isEmpty)
    }

    @Test("secret-tool's listing: items, labels, secrets; an item without a secret line is locked")
    func parse() {
        let output = """
            [/org/freedesktop/secrets/collection/login/2]
            label = one = two
            secret = {"a":1}
            created = 2026-11-28 01:09:54
            schema = org.freedesktop.Secret.Generic
            [/org/freedesktop/secrets/collection/login/1]
            label = two

            """
        let items = SecretTool.parse(Data(output.utf8))
        #expect(items.count == 2)
        #expect(items[0].label == "one = two" && items[0].secret == Data(#"{"a":1}"#.utf8))
        #expect(items[1].label == "two" && items[1].secret == nil)
    }

    @Test("A listing with another application's item, or an item that is not a credential, lists only credentials")
    func foreignItems() async throws {
        let fake = try FakeSecretTool()
        defer { fake.remove() }
        let storage = storage(fake)
        let alice = credential(subject: "alice")
        try await storage.store(alice, for: alice.storageKey)
        try await storage.tool.store(Data("junk".utf8), label: "x", attributes: ["application": "test-app", "type": "credential", "account": "x"])
        try await storage.tool.store(Data("{}".utf8), label: "y", attributes: ["application": "other-app", "type": "credential"])
        #expect(try await storage.storedKeys() == [alice.storageKey])
    }
}
