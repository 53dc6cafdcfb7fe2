// Signs in with Apple against the embedded Sign in with Apple emulator, as a website does: the authorization asks
// for response_mode=form_post (Apple requires it with the name and email scopes), the emulator posts the response
// with the user's name on the first sign-in only, and the client secret is an ES256 JWT signed with the team's key.
// A second sign-in carries no name; the one from the first is kept. Then sign-out revokes the tokens at /auth/revoke
// with the client secret, and the revoked refresh token is refused. Exits 1 if any step does not behave so.
//
//     swift run apple-example
import AuthCore
import AuthEmulators
import AuthSignInWithApple
import AuthTesting
import Foundation

/// Prints `label` and `text` in two columns.
func step(_ label: String, _ text: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + text)
}

/// Exits 1 with `message`.
func fail(_ message: String) -> Never {
    print("FAILED: \(message)")
    exit(1)
}

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print("usage: apple-example\n  signs in twice against the embedded Sign in with Apple emulator, then revokes")
    exit(0)
}

do {
    let emulator = ProviderEmulator.apple()
    let provider = try SignInWithAppleProvider(configuration: emulator.configuration, clock: emulator.clock)
    let storage = InMemoryTokenStorage()
    let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(), clock: emulator.clock)
    let secret = try JWTParts(provider.clientSecret.current().reveal())
    step("provider", "\(SignInWithAppleProvider.id) (\(SignInWithAppleProvider.displayName)), client \(provider.clientID)")
    step("secret", "ES256 JWT, kid \(secret.header["kid"] ?? "?"), iss \(secret.claims["iss"] ?? "?"), sub \(secret.claims["sub"] ?? "?"), aud \(secret.claims["aud"] ?? "?")")

    // First sign-in: Apple posts the user's name.
    let request = try await client.prepareSignIn()
    let query = Dictionary((URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { a, _ in a }
    guard query["response_mode"] == "form_post" else { fail("the authorization request did not ask for form_post") }
    step("authorize", "scope \(query["scope"] ?? "-"), response_mode \(query["response_mode"] ?? "-")")
    let callback = try await emulator.userAgent.authorize(request)
    let posted = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
    guard posted.contains(where: { $0.name == "user" }) else { fail("the first sign-in's posted form carried no user JSON") }
    step("posted", posted.map(\.name).sorted().joined(separator: ", ") + " (the user JSON only this once)")
    let first = try await client.completeSignIn(redirect: callback)
    let firstProfile = await first.credential.profile ?? [:]
    guard let name = firstProfile["name"] else { fail("the first sign-in kept no name") }
    step("signed in", "subject \(await first.subject ?? "-"), name \(name), email \(firstProfile["email"] ?? "-")")

    // Second sign-in: no name posted, the first one is kept.
    let secondRequest = try await client.prepareSignIn()
    let secondCallback = try await emulator.userAgent.authorize(secondRequest)
    guard !(URLComponents(url: secondCallback, resolvingAgainstBaseURL: false)?.queryItems ?? []).contains(where: { $0.name == "user" }) else {
        fail("the second sign-in's posted form carried the user JSON again")
    }
    let second = try await client.completeSignIn(redirect: secondCallback)
    guard await second.credential.profile?["name"] == name else { fail("the second sign-in lost the name from the first") }
    step("again", "no user JSON posted; name kept: \(name)")

    // Sign-out revokes at /auth/revoke with the client secret.
    let refreshToken = await second.credential.refreshToken
    let report = try await second.signOut(revokingTokens: true)
    guard report.revokedRefreshToken, report.revocationError == nil, (await storage.storedKeys()).isEmpty else {
        fail("sign-out did not revoke the refresh token and clear storage (\(report.revocationError?.code.rawValue ?? "no error"))")
    }
    step("revoked", "refresh and access tokens revoked at /auth/revoke; storage empty")
    guard let refreshToken else { fail("the sign-in issued no refresh token") }
    var refresh = HTTPRequest(method: .post, url: try await client.metadata().tokenEndpoint)
    refresh.headerFields[.contentType] = "application/x-www-form-urlencoded"
    let form = [
        "grant_type=refresh_token", "refresh_token=" + refreshToken.reveal(), "client_id=" + provider.clientID,
        "client_secret=" + provider.clientSecret.current().reveal()
    ].joined(separator: "&")
    let (body, response) = try await emulator.transport.send(refresh, body: Data(form.utf8), limits: HTTPRequestLimits())
    guard response.status.code == 400, (try? JSONDecoder().decode([String: JSONValue].self, from: body))?["error"]?.stringValue == "invalid_grant" else {
        fail("the revoked refresh token was not refused (HTTP \(response.status.code))")
    }
    step("refused", "the revoked refresh token: HTTP 400 invalid_grant")
    exit(0)
} catch let error as AuthError {
    fail("\(error.message) [\(error.code)]")
} catch {
    fail("\(error)")
}

/// A JWT's header and claims as text, unverified (to show the client secret's shape, never the secret).
struct JWTParts {
    let header: [String: String]
    let claims: [String: String]

    init(_ jwt: String) throws {
        let parts = jwt.split(separator: ".").map(String.init)
        guard parts.count == 3 else { throw AuthError(.invalidResponse, "The client secret is not a JWT.") }
        func object(_ part: String) throws -> [String: String] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let values = try JSONDecoder().decode([String: JSONValue].self, from: Data(base64Encoded: base64) ?? Data())
            return values.compactMapValues { $0.stringValue }
        }
        header = try object(parts[0])
        claims = try object(parts[1])
    }
}
