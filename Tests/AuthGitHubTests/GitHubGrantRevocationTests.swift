import AuthCore
import AuthEmulators
import AuthGitHub
import AuthProviders
import AuthTesting
import Foundation
import Testing

/// GitHub sign-out: an OAuth app's token never expires, so sign-out deletes the app's grant with GitHub's own API
/// (`DELETE /applications/{client_id}/grant`, Basic client authentication, 204); the emulator answers as GitHub
/// documents and the token is dead at its API afterwards.
@Suite("GitHub: sign-out deletes the app's grant")
struct GitHubGrantRevocationTests {
    typealias Harness = GitHubProviderTests.Harness

    /// `GET /user` with `token`, as any holder of a copy of the token would call it.
    static func userStatus(_ harness: Harness, token: String) async throws -> Int {
        var request = HTTPRequest(method: .get, url: URL(string: "https://api.github.com/user")!)
        request.headerFields[HTTPField.Name("Authorization")!] = "Bearer \(token)"
        request.headerFields[HTTPField.Name("User-Agent")!] = "test"
        return try await harness.emulator.transport.send(request, body: nil).1.status.code
    }

    /// `DELETE /applications/{clientID}/grant` with `basic` (`id:secret`) and `body`, as sent to the emulator.
    static func deleteGrant(_ harness: Harness, clientID: String, basic: String?, body: String?) async throws -> Int {
        var request = HTTPRequest(method: .delete, url: URL(string: "https://api.github.com/applications/\(clientID)/grant")!)
        if let basic { request.headerFields[HTTPField.Name("Authorization")!] = "Basic " + Data(basic.utf8).base64EncodedString() }
        request.headerFields[HTTPField.Name("Content-Type")!] = "application/json"
        return try await harness.emulator.transport.send(request, body: body.map { Data($0.utf8) }).1.status.code
    }

    @Test("An OAuth app's sign-out deletes the grant with Basic client authentication and a JSON body: the token is dead at the API", arguments: [false, true])
    func signOutRevokes(expiringTokens: Bool) async throws {
        let harness = try GitHubProviderTests.harness(expiringTokens: expiringTokens)
        let (_, session) = try await GitHubProviderTests.signIn(harness)
        let token = await session.credential.accessToken.reveal()
        #expect(try await Self.userStatus(harness, token: token) == 200)
        let report = try await session.signOut()
        #expect(report.revokedAccessToken && report.revocationError == nil)
        #expect(report.revokedRefreshToken == expiringTokens)
        #expect(try await harness.storedCount() == 0)
        #expect(await harness.idp.grantDeletions == 1)
        #expect(try await Self.userStatus(harness, token: token) == 401)
        let sent = try #require(await harness.transport.exchanges.last)
        #expect(sent.request.httpMethod == "DELETE" && sent.request.url?.path == "/applications/\(TestIdentityProvider.githubClientID)/grant")
        let basic = Data("\(TestIdentityProvider.githubClientID):\(TestIdentityProvider.githubClientSecret)".utf8).base64EncodedString()
        #expect(sent.request.value(forHTTPHeaderField: "Authorization") == "Basic \(basic)")
        #expect(try JSONValue.parseObject(sent.request.httpBody ?? Data()) == ["access_token": .string(token)])
        #expect(sent.status == 204)
    }

    @Test("A refused revocation (a wrong client secret: GitHub's 404) still signs out locally, and reports and logs it without a secret")
    func refusedRevocationSignsOut() async throws {
        let harness = try GitHubProviderTests.harness(expiringTokens: false)
        let (_, session) = try await GitHubProviderTests.signIn(harness)
        let token = await session.credential.accessToken.reveal()
        // The same app with a secret GitHub does not know (rotated at GitHub, say) signs the stored session out.
        var configuration = harness.emulator.configuration
        configuration["client_secret"] = "rotated-away"
        let logger = RecordingLogger()
        let stale = AuthClient(
            provider: try ProviderRegistry.builtIn.provider(named: "github", configuration: configuration), storage: harness.storage,
            transport: harness.transport, logger: logger, clock: harness.clock)
        let restored = try #require(try await stale.restoreSession(key: session.storageKey))
        let report = try await restored.signOut()
        #expect(!report.revokedAccessToken)
        #expect(report.revocationError?.code == .httpError && report.revocationError?.httpStatus == 404)
        #expect(try await harness.storedCount() == 0)
        #expect(await restored.isSignedIn == false)
        #expect(await harness.idp.grantDeletions == 0)
        let warning = try #require(logger.records.first { $0.event == "signout.revocation_failed" })
        #expect(warning.metadata["code"] == "http_error")
        for record in logger.records {
            let text = record.message + record.metadata.values.joined()
            #expect(!text.contains(token) && !text.contains("rotated-away") && !text.contains(TestIdentityProvider.githubClientSecret))
        }
    }

    @Test("Without a client secret (a device-flow client) sign-out is local: nothing is sent to GitHub")
    func noSecretIsLocal() async throws {
        let harness = try GitHubProviderTests.harness(expiringTokens: false)
        let (_, session) = try await GitHubProviderTests.signIn(harness)
        let token = await session.credential.accessToken.reveal()
        let sameUser = try Self.clientWithoutSecret(harness)
        let restored = try #require(try await sameUser.restoreSession(key: session.storageKey))
        let report = try await restored.signOut()
        #expect(!report.revokedAccessToken && report.revocationError == nil)
        #expect(await harness.idp.grantDeletions == 0)
        #expect(try await Self.userStatus(harness, token: token) == 200)
        #expect(try await harness.storedCount() == 0)
    }

    static func clientWithoutSecret(_ harness: Harness) throws -> AuthClient {
        var configuration = harness.emulator.configuration
        configuration["client_secret"] = nil
        let provider = try ProviderRegistry.builtIn.provider(named: "github", configuration: configuration)
        return AuthClient(provider: provider, storage: harness.storage, transport: harness.transport, clock: harness.clock)
    }

    @Test(
        "The emulator's grant deletion is as strict as GitHub's: wrong or missing Basic credentials and unknown tokens are 404, a body without access_token 422; nothing is revoked"
    )
    func emulatorStrictness() async throws {
        let harness = try GitHubProviderTests.harness(expiringTokens: false)
        let (_, session) = try await GitHubProviderTests.signIn(harness)
        let token = await session.credential.accessToken.reveal()
        let id = TestIdentityProvider.githubClientID
        let good = "\(id):\(TestIdentityProvider.githubClientSecret)"
        let body = #"{"access_token":"\#(token)"}"#
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: "\(id):wrong", body: body) == 404)
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: nil, body: body) == 404)
        #expect(try await Self.deleteGrant(harness, clientID: "Iv23liSomeoneElse", basic: good, body: body) == 404)
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: good, body: #"{"access_token":"gho_unknown"}"#) == 404)
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: good, body: "{}") == 422)
        #expect(await harness.idp.grantDeletions == 0)
        #expect(try await Self.userStatus(harness, token: token) == 200)
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: good, body: body) == 204)
        #expect(try await Self.userStatus(harness, token: token) == 401)
        // Deleted once: the same token again is unknown.
        #expect(try await Self.deleteGrant(harness, clientID: id, basic: good, body: body) == 404)
    }
}
