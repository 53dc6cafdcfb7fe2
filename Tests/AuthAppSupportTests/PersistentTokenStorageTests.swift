import AuthAppSupport
import AuthCore
import AuthFileStorage
import Foundation
import Testing

@Suite("PersistentTokenStorage (the vendor facades' default)")
struct PersistentTokenStorageTests {
    @Test("Outside Apple platforms: $XDG_DATA_HOME/<service>, else ~/.local/share/<service>; a relative XDG path is ignored")
    func directory() {
        #expect(PersistentTokenStorage.directory(service: "s", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path == "/data/s")
        #expect(PersistentTokenStorage.directory(service: "s", environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/s")
        #expect(PersistentTokenStorage.directory(service: "s", environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).path == "/home/u/.local/share/s")
    }

    @Test("The default is the platform's persistent store: the Keychain on Apple platforms, owner-only files elsewhere")
    func platformStore() throws {
        #if canImport(Security)
            let storage = PersistentTokenStorage.makeDefault(service: "swift-auth-providers-test-\(UUID().uuidString)")
            #expect(storage is KeychainTokenStorage)
        #else
            let storage = PersistentTokenStorage.makeDefault()
            let files = try #require(storage as? FileTokenStorage)
            #expect(files.directory.path.hasSuffix("/swift-auth-providers"))
        #endif
    }
}
