import AuthCore
import AuthEmulators
import AuthOneLogin
import AuthTesting
import Foundation
import OneLoginCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `error.olOidcError` against the vendor's `OLOidcError`: its cases, payloads and descriptions, as OLOidcConfig and
/// OLOidc (`getUserInfo`, the refresh, revocation) report them.
@Suite("OneLogin: errors as OLOidc reports them")
struct OneLoginVendorErrorTests {
    private let base = oneLoginTestConfiguration

    /// Fails every request to the user info endpoint as an unreachable host would; passes the rest on.
    private struct UserInfoUnreachable: HTTPTransport {
        let base: any HTTPTransport
        func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
            if request.url?.path.hasSuffix("/me") == true { throw URLError(.cannotFindHost) }
            return try await base.send(request, body: body, limits: limits)
        }
    }

    private func signedIn(_ idp: TestIdentityProvider, transport: (any HTTPTransport)? = nil) async throws -> OLOidc {
        let olOidc = try await OLOidc(
            configuration: try OneLoginConfiguration(dict: base), secureStorage: InMemoryTokenStorage(),
            transport: transport ?? idp.transport, logger: RecordingLogger(), clock: idp.clock
        )
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        return olOidc
    }

    private func writePlist(_ values: [String: Any], in directory: URL) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: directory.appendingPathComponent("OL-Oidc.plist"))
    }

    /// No payload quotes a token of the session.
    private func expectNoTokenText(in error: OLOidcError?, _ olOidc: OLOidc, sourceLocation: SourceLocation = #_sourceLocation) async {
        let state = await olOidc.olAuthState
        let text = error?.errorDescription ?? ""
        for token in [state.accessToken, state.refreshToken, state.idToken].compactMap({ $0 }) {
            #expect(!text.contains(token.reveal()), sourceLocation: sourceLocation)
        }
    }

    @Test("Configuration errors are the vendor's: a missing or empty key is configInvalid, a non-string plist value is configFileParseFailure")
    func configurationErrors() throws {
        for (key, value) in [("clientId", nil), ("clientId", ""), ("redirectUri", nil), ("scopes", "profile")] as [(String, String?)] {
            var values = base
            values[key] = value
            let error = #expect(throws: AuthError.self) { try OneLoginConfiguration(dict: values) }
            #expect(error?.olOidcError == .configInvalid, "\(key) = \(value ?? "nil")")
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onelogin-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // A number where the vendor wanted a string: the whole file is refused, before any field is read (even a
        // missing required key is not reported), naming the key.
        var numeric: [String: Any] = base
        numeric["max_age"] = 300
        numeric["scopes"] = nil
        try writePlist(numeric, in: directory)
        let parse = #expect(throws: AuthError.self) { try OneLoginConfiguration(in: directory) }
        #expect(parse?.code == .configurationFileInvalid)
        #expect(parse?.configurationKey == "max_age")
        #expect(parse?.message.contains("'max_age'") == true)
        #expect(parse?.olOidcError == .configFileParseFailure)

        var boolean: [String: Any] = base
        boolean["clientId"] = true
        try writePlist(boolean, in: directory)
        let nonString = #expect(throws: AuthError.self) { try OneLoginConfiguration(in: directory) }
        #expect(nonString?.olOidcError == .configFileParseFailure)
        #expect(nonString?.configurationKey == "clientId")

        // A dictionary of strings missing a key reads as far as the vendor's `init(dict:)`: configInvalid.
        var missing = base
        missing["issuer"] = nil
        try writePlist(missing, in: directory)
        let invalid = #expect(throws: AuthError.self) { try OneLoginConfiguration(in: directory) }
        #expect(invalid?.olOidcError == .configInvalid)
    }

    @Test(
        "HTTP failures carry the vendor's payloads: user info 500 → authorizationError(\"(500). …\"), transport → httpRequestFailed(…), rejected refresh → fetchingFreshTokenError(…)"
    )
    func httpFailurePayloads() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let olOidc = try await signedIn(idp)

        await idp.queueFault(.serverError)
        let serverError = await #expect(throws: AuthError.self) { _ = try await olOidc.getUserInfo() }
        #expect(serverError?.httpStatus == 500)
        guard case .authorizationError(let payload)? = serverError?.olOidcError else {
            Issue.record("user info 500: expected authorizationError, got \(String(describing: serverError?.olOidcError))")
            return
        }
        #expect(payload.hasPrefix("(500). Response: "))
        #expect(payload.contains("server_error"))
        #expect(serverError?.olOidcError.errorDescription == "Authorization Error: \(payload)")
        await expectNoTokenText(in: serverError?.olOidcError, olOidc)

        let unreachable = try await signedIn(idp, transport: UserInfoUnreachable(base: idp.transport))
        let network = await #expect(throws: AuthError.self) { _ = try await unreachable.getUserInfo() }
        #expect(network?.code == .network)
        #expect(network?.olOidcError == .httpRequestFailed(network?.message ?? ""))
        #expect(network?.olOidcError.errorDescription == "HTTP request failed \(network?.message ?? "")")
        await expectNoTokenText(in: network?.olOidcError, unreachable)

        await idp.update {
            $0.tokenResponseReplacement = (
                400, Data(#"{"error":"invalid_grant","error_description":"Refresh token is revoked"}"#.utf8), ["Content-Type": "application/json"]
            )
        }
        let before = await olOidc.olAuthState
        let refresh = await #expect(throws: AuthError.self) { try await olOidc.refreshAccessToken() }
        guard case .fetchingFreshTokenError(let reason)? = refresh?.olOidcError else {
            Issue.record("rejected refresh: expected fetchingFreshTokenError, got \(String(describing: refresh?.olOidcError))")
            return
        }
        #expect(reason.contains("invalid_grant") && reason.contains("Refresh token is revoked"))
        #expect(refresh?.olOidcError.errorDescription == "Error fetching fresh tokens: \(reason)")
        for token in [before.accessToken, before.refreshToken, before.idToken].compactMap({ $0 }) {
            #expect(!reason.contains(token.reveal()))
        }
    }

    @Test("A refused revocation is the vendor's authorizationError(\"(<status>). Response: …\")")
    func revocationFailurePayload() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let olOidc = try await signedIn(idp)
        await idp.update { $0.revocationFailureStatus = 503 }
        let error = await #expect(throws: AuthError.self) { try await olOidc.revokeToken(tokenType: .accessToken) }
        guard case .authorizationError(let payload)? = error?.olOidcError else {
            Issue.record("expected authorizationError, got \(String(describing: error?.olOidcError))")
            return
        }
        #expect(payload.hasPrefix("(503). Response: "))
        await expectNoTokenText(in: error?.olOidcError, olOidc)
    }

    @Test("An error status without a response is httpRequestFailed; the payload-free cases keep the vendor's descriptions")
    func statuslessAndDescriptions() {
        #expect(AuthError(.serverError, "down").olOidcError == .httpRequestFailed("down"))
        #expect(AuthError(.httpError, "x", httpStatus: 404).olOidcError == .authorizationError("(404). Response: x"))
        #expect(AuthError(.unexpectedRedirect, "moved", httpStatus: 302).olOidcError == .httpRequestFailed("moved"))
        #expect(AuthError(.stateMismatch, "forged").olOidcError == .authorizationError("forged"))
        let descriptions: [(OLOidcError, String)] = [
            (.configFileNotFound, "The config file could not be found."),
            (.configFileParseFailure, "The config file could not be parsed correctly."),
            (.missingConfiguration, "No configuration was provided to OLOidc."),
            (.configInvalid, "The config file contains invalid parameters."),
            (.tokenEndpointUndeclared, "Token endpoint not declared in discovery document."),
            (.userEndpointUndeclared, "Userinfo endpoint not declared in discovery document."),
            (.gettingAccessTokenError, "Error getting accessToken"),
            (.nonHttpResponse, "Non-HTTP response"),
            (.noResponseData, "HTTP response data is empty"),
            (.jsonSerializationError, "JSON Serialization Error"),
            (.unknownError, "unknown error")
        ]
        for (error, text) in descriptions {
            #expect(error.localizedDescription == text)
        }
    }
}
