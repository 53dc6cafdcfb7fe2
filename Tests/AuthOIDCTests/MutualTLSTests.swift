import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

/// RFC 8705 mutual TLS as the engine sees it: the transport presents the certificate (its TLS client identity), the
/// engine names the client and goes to the provider's `mtls_endpoint_aliases`. The TLS handshake itself is shown over
/// HTTPS against Glewlwyd (`Scripts/e2e/glewlwyd-mtls.sh`).
@Suite("Mutual TLS client authentication (RFC 8705): tls_client_auth, mtls_endpoint_aliases")
struct MutualTLSTests {
    static let issuer = TestIdentityProvider.defaultIssuer.absoluteString

    /// Aliases on the same paths with a marker in the query, so the in-process provider serves them and the recording
    /// shows which URL the engine chose.
    static let aliases: JSONValue = .object([
        "token_endpoint": .string(issuer + "/token?via=mtls"),
        "pushed_authorization_request_endpoint": .string(issuer + "/par?via=mtls"),
        "revocation_endpoint": .string(issuer + "/revoke?via=mtls"),
        "userinfo_endpoint": .string(issuer + "/userinfo?via=mtls")
    ])

    static func harness(method: String, aliases: JSONValue = aliases) throws -> PARHarness {
        try PARHarness(values: ["token_endpoint_auth_method": .string(method)]) {
            $0.initialBehavior.discoveryOverrides = ["mtls_endpoint_aliases": aliases]
        }
    }

    @Test("tls_client_auth: client_id in the body, no secret, no Authorization header; token, PAR, user info and revocation at their aliases")
    func aliasesUsed() async throws {
        let harness = try Self.harness(method: "tls_client_auth")
        let session = try await harness.client.signIn(with: harness.agent)
        _ = try await session.userInfo()
        _ = try await session.refresh()
        _ = try await session.signOut()
        let exchanges = await harness.transport.exchanges
        let sent = exchanges.filter { $0.request.url?.host == TestIdentityProvider.defaultIssuer.host && $0.request.head.method == .post }
        for path in ["/token", "/par", "/revoke"] {
            let here = sent.filter { $0.request.url?.path.hasSuffix(path) == true }
            #expect(!here.isEmpty, "a request to \(path)")
            #expect(here.allSatisfy { $0.request.url?.query == "via=mtls" }, "\(path) went to its alias")
            for exchange in here {
                #expect(exchange.formParameters["client_id"] == TestIdentityProvider.defaultClientID)
                #expect(exchange.formParameters["client_secret"] == nil && exchange.formParameters["client_assertion"] == nil)
                #expect(exchange.request.head.headerFields[.authorization] == nil)
            }
        }
        let userinfo = exchanges.filter { $0.request.url?.path.hasSuffix("/userinfo") == true }
        #expect(!userinfo.isEmpty && userinfo.allSatisfy { $0.request.url?.query == "via=mtls" })
    }

    @Test("A client that does not authenticate with its certificate ignores the aliases")
    func aliasesIgnoredWithoutMutualTLS() async throws {
        let harness = try Self.harness(method: "none")
        _ = try await harness.client.signIn(with: harness.agent)
        let exchanges = await harness.transport.exchanges
        #expect(exchanges.allSatisfy { $0.request.url?.query?.contains("via=mtls") != true })
        #expect(await !harness.transport.exchanges(pathSuffix: "/token").isEmpty)
    }

    @Test("mtls_endpoint_aliases that is not an object, or an alias that is not a URL: discovery_failed naming it, nothing sent to the token endpoint")
    func malformedAliases() async throws {
        for (aliases, member) in [(JSONValue.string("https://elsewhere"), "mtls_endpoint_aliases"), (.object(["token_endpoint": 42]), "mtls_endpoint_aliases.token_endpoint")] {
            let harness = try Self.harness(method: "tls_client_auth", aliases: aliases)
            let error = await #expect(throws: AuthError.self) { try await harness.client.prepareSignIn() }
            #expect(error?.code == .discoveryFailed && error?.endpoint == member)
            #expect(try await harness.nothingKept())
        }
    }

    @Test("An alias over plain http to another host: insecure_endpoint before anything is sent to it")
    func insecureAlias() async throws {
        let harness = try Self.harness(method: "tls_client_auth", aliases: .object(["token_endpoint": "http://mtls.example.test/token"]))
        let error = await #expect(throws: AuthError.self) { try await harness.client.prepareSignIn() }
        #expect(error?.code == .insecureEndpoint)
        #expect(await harness.transport.exchanges.allSatisfy { $0.request.url?.host != "mtls.example.test" })
    }

    @Test("FAPI 2.0 with tls_client_auth: accepted when the provider issues certificate-bound tokens, refused naming the rule when it does not say so")
    func fapi2WithMutualTLS() async throws {
        var values: [String: JSONValue] = ["token_endpoint_auth_method": "tls_client_auth", "profile": "fapi2"]
        values["dpop"] = false
        let declared = try PARHarness(values: values) {
            $0.initialBehavior.discoveryOverrides = [
                "tls_client_certificate_bound_access_tokens": true, "authorization_response_iss_parameter_supported": true,
                "id_token_signing_alg_values_supported": ["ES256"], "token_endpoint_auth_methods_supported": ["tls_client_auth"]
            ]
        }
        _ = try await declared.client.prepareSignIn()
        let undeclared = try PARHarness(values: values) {
            $0.initialBehavior.discoveryOverrides = [
                "authorization_response_iss_parameter_supported": true, "id_token_signing_alg_values_supported": ["ES256"],
                "token_endpoint_auth_methods_supported": ["tls_client_auth"]
            ]
        }
        let error = await #expect(throws: AuthError.self) { try await undeclared.client.prepareSignIn() }
        #expect(error?.code == .fapiProfileViolation && error?.message.contains("rule 'sender-constrained tokens'") == true)
        #expect(try await undeclared.nothingKept())
    }
}
