import AuthAppSupport
import AuthCore
import AuthEmulators
import AuthGrab
import AuthTesting
import Foundation
import GrabCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GrabIdPartnerSDK's stored session, moved once into this package's storage, so a migrating developer keeps their
/// users signed in.
@Suite("Grab: the vendor SDK's stored session")
struct GrabVendorSessionTests {
    /// `NSKeyedArchiver.archivedData(withRootObject:)` of the vendor's `LoginSession` after a login: its
    /// `encode(with:)` (GrabIdPartnerLogin.swift) run by a class `LoginSession` compiled in a module named
    /// `GrabIdPartnerSDK`, so the archive names `GrabIdPartnerSDK.LoginSession` as the vendor's does. Fields: code nil,
    /// hint "", codeVerifier, accessTokenExpiresAt 2026-01-01T01:00:00Z, state, tokenType "Bearer", nonce
    /// "vendor-nonce-7d1e", the discovery and endpoint URLs, clientPublicInfoEndpoint nil, idTokenHint "", prompt "".
    static let archivedLoginSession = Data(
        base64Encoded:
            "YnBsaXN0MDDUAQIDBAUGBwpZJGFyY2hpdmVyWCR2ZXJzaW9uVCR0b3BYJG9iamVjdHNfEA9OU0tleWVkQXJjaGl2ZXISAAGGoNEICVRyb290gAGuCwwrLC0yOTo7PD0+P0BVJG51bGzfEA8NDg8QERITFBUWFxgZGhscHR4fICEiHR0lHicoKSpfEBNzZXJ2aWNlRGlzY292ZXJ5VXJsW2lkVG9rZW5IaW50VGNvZGVWJGNsYXNzXGNvZGVWZXJpZmllcl8QG2lkVG9rZW5WZXJpZmljYXRpb25FbmRwb2ludF8QFGFjY2Vzc1Rva2VuRXhwaXJlc0F0VnByb21wdFRoaW50VW5vbmNlXxAYY2xpZW50UHVibGljSW5mb0VuZHBvaW50XxAVYXV0aG9yaXphdGlvbkVuZHBvaW50XXRva2VuRW5kcG9pbnRVc3RhdGVZdG9rZW5UeXBlgAmAAoAAgA2AA4AMgASAAoACgAiAAIALgAqABoAHUF8QK1EyeHh0djhZejVhRzBSa1Y4Y04zb082VnhrMndxMFBtM3QzY1Z3MGNQNVnSLi8wMVdOUy50aW1lViRjbGFzcyNBx4L/SAAAAIAF0jM0NThYJGNsYXNzZXNaJGNsYXNzbmFtZaI2N1ZOU0RhdGVYTlNPYmplY3RWTlNEYXRlXxAkM2YyYzljMWUtOGYwYS00YTU5LTljMGYtNmYxZjNhNGMyZDExVkJlYXJlcl8QEXZlbmRvci1ub25jZS03ZDFlXxBOaHR0cHM6Ly9wYXJ0bmVyLWFwaS5ncmFiLmNvbS9ncmFiaWQvdjEvb2F1dGgyLy53ZWxsLWtub3duL29wZW5pZC1jb25maWd1cmF0aW9uXxAzaHR0cHM6Ly9wYXJ0bmVyLWFwaS5ncmFiLmNvbS9ncmFiaWQvdjEvb2F1dGgyL3Rva2VuXxA3aHR0cHM6Ly9wYXJ0bmVyLWFwaS5ncmFiLmNvbS9ncmFiaWQvdjEvb2F1dGgyL2F1dGhvcml6ZV8QQmh0dHBzOi8vcGFydG5lci1hcGkuZ3JhYi5jb20vZ3JhYmlkL3YxL29hdXRoMi9pZF90b2tlbnMvdG9rZW5faW5mb9JBQkNGWCRjbGFzc2VzWiRjbGFzc25hbWWiREVfEB1HcmFiSWRQYXJ0bmVyU0RLLkxvZ2luU2Vzc2lvblhOU09iamVjdF8QHUdyYWJJZFBhcnRuZXJTREsuTG9naW5TZXNzaW9uAAgAEQAbACQAKQAyAEQASQBMAFEAUwBiAGgAiQCfAKsAsAC3AMQA4gD5AQABBQELASYBPgFMAVIBXAFeAWABYgFkAWYBaAFqAWwBbgFwAXIBdAF2AXgBegF7AakBrgG2Ab0BxgHIAc0B1gHhAeQB6wH0AfsCIgIpAj0CjgLEAv4DQwNIA1EDXANfA38DiAAAAAAAAAIBAAAAAAAAAEcAAAAAAAAAAAAAAAAAAAOo"
    )!

    private let configuration = try! GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)]))

    @Test("The archive reads as the vendor's LoginSession: class, token type, nonce, expiry, nil fields")
    func archiveFixture() throws {
        let archive = try KeyedArchive(Self.archivedLoginSession)
        #expect(archive.className == "GrabIdPartnerSDK.LoginSession")
        #expect(archive.string("tokenType") == "Bearer" && archive.string("nonce") == "vendor-nonce-7d1e")
        #expect(archive.date("accessTokenExpiresAt") == Date(timeIntervalSince1970: 1_767_229_200) && archive.string("code") == nil)
        #expect(archive.string("hint") == "" && archive.string("tokenEndpoint")?.hasSuffix("/token") == true)
    }

    /// Tokens the emulator issued, stored the way GrabIdPartnerSDK stores them.
    private func vendorStore(idp: TestIdentityProvider, clock: ManualClock) async throws -> (InMemoryVendorStore, accessToken: String) {
        let issuing = GrabIdPartner(
            configuration: configuration, webAgent: HeadlessUserAgent(transport: idp.transport),
            storage: InMemoryTokenStorage(), transport: idp.transport, logger: RecordingLogger(), clock: clock, vendorStore: nil)
        let signedIn = try await issuing.login(loginSession: try await issuing.loadLoginSession())
        let store = InMemoryVendorStore()
        let scope = "openid profile.read"
        await store.setGenericPassword(Data(try #require(signedIn.accessToken).reveal().utf8), service: TestIdentityProvider.grabClientID, account: "accessToken.\(scope)")
        await store.setGenericPassword(Data(try #require(signedIn.idToken).reveal().utf8), service: TestIdentityProvider.grabClientID, account: "idToken.\(scope)")
        await store.setGenericPassword(Data(), service: TestIdentityProvider.grabClientID, account: "refreshToken.\(scope)")
        await store.setUserDefaultsData(Self.archivedLoginSession, forKey: "\(TestIdentityProvider.grabClientID).\(scope)")
        return (store, signedIn.accessToken!.reveal())
    }

    private func partner(
        idp: TestIdentityProvider, clock: ManualClock, storage: InMemoryTokenStorage, vendorStore: InMemoryVendorStore,
        transport: (any HTTPTransport)? = nil
    ) -> (GrabIdPartner, RecordingTransport) {
        let recorder = RecordingTransport(transport ?? idp.transport)
        let grab = GrabIdPartner(
            configuration: configuration, webAgent: HeadlessUserAgent(transport: recorder), storage: storage,
            transport: recorder, logger: RecordingLogger(), clock: clock, vendorStore: vendorStore)
        return (grab, recorder)
    }

    @Test("A user signed in with GrabIdPartnerSDK is signed in after the switch: adopted once, no login shown, the vendor's copy removed")
    func adoptedOnce() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let (store, accessToken) = try await vendorStore(idp: idp, clock: clock)
        let storage = InMemoryTokenStorage()
        let (grab, recorder) = partner(idp: idp, clock: clock, storage: storage, vendorStore: store)

        let loginSession = try await grab.loadLoginSession()
        #expect(loginSession.accessToken?.reveal() == accessToken)
        #expect(loginSession.accessTokenExpiresAt == Date(timeIntervalSince1970: 1_767_229_200), "the archived expiry")
        #expect(loginSession.refreshToken == nil, "the vendor stored an empty refresh token")
        #expect(await store.isEmpty, "the vendor's items are removed once adopted")
        #expect(await storage.storedKeys().count == 1)

        try await grab.login(loginSession: loginSession)
        #expect(await recorder.exchanges(pathSuffix: "/authorize").isEmpty, "no login shown")
        let info = try await grab.getIdTokenInfo(loginSession: loginSession)
        #expect(info.service == "PASSENGER")

        // A second launch with the vendor's items back (an app still writing them) keeps the adopted session.
        let (again, _) = try await vendorStore(idp: idp, clock: clock)
        let (relaunched, _) = partner(idp: idp, clock: clock, storage: storage, vendorStore: again)
        _ = try await relaunched.loadLoginSession()
        #expect(await again.isEmpty == false, "storage already had a session: nothing adopted, nothing removed")
    }

    @Test("Offline, nothing is adopted and the vendor's copy stays; online later, it is adopted")
    func offlineThenOnline() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let (store, _) = try await vendorStore(idp: idp, clock: clock)
        let storage = InMemoryTokenStorage()
        let offline = InProcessTransport().adding(host: "partner-api.grab.com") { _ in throw URLError(.notConnectedToInternet) }
        let (grab, _) = partner(idp: idp, clock: clock, storage: storage, vendorStore: store, transport: offline)
        #expect(try await grab.loadLoginSession().accessToken == nil)
        let (vendorLeft, nothingStored) = (await store.isEmpty == false, await storage.isEmpty)
        #expect(vendorLeft && nothingStored)

        let (online, _) = partner(idp: idp, clock: clock, storage: storage, vendorStore: store)
        #expect(try await online.loadLoginSession().accessToken != nil)
        #expect(await store.isEmpty)
    }

    @Test("A damaged archive is left in place and logged; the user logs in as if there were none")
    func damagedArchive() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let (store, _) = try await vendorStore(idp: idp, clock: clock)
        await store.setUserDefaultsData(Self.archivedLoginSession.prefix(200), forKey: "\(TestIdentityProvider.grabClientID).openid profile.read")
        let storage = InMemoryTokenStorage()
        let (grab, _) = partner(idp: idp, clock: clock, storage: storage, vendorStore: store)
        #expect(try await grab.loadLoginSession().accessToken == nil)
        let (nothingStored, vendorLeft) = (await storage.isEmpty, await store.isEmpty == false)
        #expect(nothingStored && vendorLeft)
    }

    @Test("Every single-byte corruption of the archive reads or is storage_corrupted, never a crash")
    func corruptedBytes() {
        for index in Self.archivedLoginSession.indices {
            for value: UInt8 in [0x00, 0x0F, 0x7F, 0xAF, 0xDF, 0xFF] {
                var damaged = Self.archivedLoginSession
                damaged[index] = value
                do { _ = try KeyedArchive(damaged) } catch let error as AuthError { #expect(error.code == .storageCorrupted) } catch { Issue.record("\(error)") }
            }
        }
    }

    @Test("A small file whose references repeat cannot expand without bound")
    func repeatedReferences() throws {
        // 40 arrays, each holding two references to the next: 2^40 visits if followed naively.
        var objects: [[UInt8]] = (0..<40).map { level in [0xA2, UInt8(level + 1), UInt8(level + 1)] }
        objects.append([0x50])  // an empty ASCII string ends the chain
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
            + withUnsafeBytes(of: UInt64(0).bigEndian, Array.init) + withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        let error = #expect(throws: AuthError.self) { try BinaryPropertyList.decode(Data(bytes)) }
        #expect(error?.code == .storageCorrupted)
    }

    @Test("Every truncation of the archive is storage_corrupted, never a crash")
    func truncatedArchives() {
        for length in stride(from: 0, to: Self.archivedLoginSession.count, by: 7) {
            #expect(throws: AuthError.self) { try KeyedArchive(Self.archivedLoginSession.prefix(length)) }
        }
    }
}
