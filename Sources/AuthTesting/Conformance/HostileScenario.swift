public import AuthCore
import Foundation

/// One way an identity provider can misbehave during sign-in, and how a correct client must react.
///
/// `all` is the catalog this package's security tests run, one test case per scenario, and that third parties
/// can run against their own providers: configure a `TestIdentityProvider` with `configure`, sign in, and
/// check the outcome against `expectation`. Ids follow the OpenID Foundation's relying-party conformance
/// suite (`oidcc-client-test-*`) where one exists, else `rfc9700-*` / `oauth-*` names.
public struct HostileScenario: Sendable, CustomStringConvertible {
    /// What a correct client does.
    public enum Expectation: Sendable, Equatable {
        /// Sign-in fails with this code, nothing is stored, and user info is never requested.
        case rejected(AuthError.Code)
        /// Sign-in succeeds (the deviation is harmless or must be tolerated).
        case accepted
    }

    /// Where in the flow the client must reject (or tolerate) the misbehaviour.
    public enum Stage: String, Sendable {
        /// The discovery document.
        case discovery
        /// The pushed authorization request endpoint's answer (RFC 9126), before the browser opens.
        case pushedAuthorizationRequest = "pushed authorization request"
        /// The redirect back to the app.
        case authorizationResponse = "authorization response"
        /// The token endpoint's answer.
        case tokenResponse = "token response"
        /// The ID token.
        case idToken = "ID token"
        /// A token exchange's answer (RFC 8693 §2.2.1), after an honest sign-in (``HostileScenario/tokenExchangeAnswers``).
        case tokenExchange = "token exchange"
        /// A resource's RFC 9470 step-up challenge and the step-up sign-in it starts, after an honest sign-in. The
        /// outcome's ``ScenarioOutcome/storedCredentials`` then counts, for a rejection, stored credentials other than
        /// the original and the one a completed step-up gave the session (a validated step-up of the same user stays
        /// even when the resource challenges again); for an acceptance, the step-up's credential in storage.
        case stepUp = "step-up challenge"
    }

    /// A stable id, such as `oidcc-client-test-invalid-iss`.
    public let id: String
    /// What the provider does wrong.
    public let summary: String
    /// The specification the check comes from.
    public let reference: String
    /// Where it happens.
    public let stage: Stage
    /// The ID token algorithm the provider uses for this scenario.
    public let algorithm: JWSAlgorithm
    /// The correct outcome.
    public let expectation: Expectation
    /// The app's sign-in options (for example `max_age`), when the scenario needs a request the provider ignores.
    public let options: SignInOptions
    /// The step-up resource (`TestIdentityProvider/StepUpSettings`) a ``Stage/stepUp`` scenario calls after signing in.
    public let resourcePath: String?
    /// Makes a `TestIdentityProvider` misbehave this way.
    public let configure: @Sendable (inout TestIdentityProvider.Behavior) -> Void
    /// The encrypted ID tokens the client under test must be registered for (`ClientRegistration/idTokenEncryption`,
    /// with `TestJWE.clientRSAKey` and `TestJWE.clientP256Key` among its `decryptionKeys`); `nil` for none.
    public var registeredEncryption: ResponseEncryption? = nil

    /// Creates a scenario.
    public init(
        id: String,
        summary: String,
        reference: String,
        stage: Stage,
        algorithm: JWSAlgorithm = .rs256,
        expectation: Expectation,
        options: SignInOptions = SignInOptions(),
        configure: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) {
        self.id = id
        self.summary = summary
        self.reference = reference
        self.stage = stage
        self.algorithm = algorithm
        self.expectation = expectation
        self.options = options
        self.resourcePath = nil
        self.configure = configure
    }

    /// Creates a ``Stage/stepUp`` scenario that calls the step-up resource at `resourcePath` after signing in.
    public init(
        id: String,
        summary: String,
        reference: String,
        stage: Stage,
        expectation: Expectation,
        resourcePath: String,
        configure: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) {
        self.id = id
        self.summary = summary
        self.reference = reference
        self.stage = stage
        self.algorithm = .rs256
        self.expectation = expectation
        self.options = SignInOptions()
        self.resourcePath = resourcePath
        self.configure = configure
    }

    /// The id (so test reports name each case).
    public var description: String { id }
}

extension HostileScenario {
    /// Every scenario, in flow order.
    public static let all: [HostileScenario] =
        discovery + pushedAuthorizationRequest + authorizationResponse + tokenResponse + nativeSSO + idToken + encryptedIDToken + stepUp

    static let discovery: [HostileScenario] = [
        .init(
            id: "oidcc-client-test-discovery-issuer-mismatch", summary: "discovery document names another issuer",
            reference: "OIDC Discovery §4.3", stage: .discovery, expectation: .rejected(.discoveryIssuerMismatch)
        ) {
            $0.discoveryOverrides["issuer"] = "https://impostor.example.test"
        },
        .init(
            id: "rfc9700-discovery-insecure-endpoint", summary: "a non-loopback endpoint over plain http",
            reference: "RFC 9700 §4.13 / RFC 8414 §2", stage: .discovery, expectation: .rejected(.insecureEndpoint)
        ) {
            $0.discoveryOverrides["token_endpoint"] = "http://idp.example.test/token"
        },
        .init(
            id: "rfc9700-authorization-endpoint-file-scheme", summary: "the authorization endpoint is a file: URL",
            reference: "RFC 9700 §4.13, RFC 8414 §2", stage: .discovery, expectation: .rejected(.insecureEndpoint)
        ) {
            $0.discoveryOverrides["authorization_endpoint"] = "file:///etc/passwd"
        },
        .init(
            id: "rfc9700-token-endpoint-loopback-lookalike-name", summary: "token endpoint on http://127.evil.test, a name, not an IP",
            reference: "RFC 8252 §8.3, RFC 9700 §4.13", stage: .discovery, expectation: .rejected(.insecureEndpoint)
        ) {
            $0.discoveryOverrides["token_endpoint"] = "http://127.evil.test/token"
        },
        .init(
            id: "rfc8252-localhost-name-not-loopback", summary: "user info on http://localhost (a name resolved elsewhere)",
            reference: "RFC 8252 §8.3, RFC 6761 §6.3", stage: .discovery, expectation: .rejected(.insecureEndpoint)
        ) {
            $0.discoveryOverrides["userinfo_endpoint"] = "http://localhost/userinfo"
        },
        .init(
            id: "rfc9700-jwks-uri-custom-scheme", summary: "jwks_uri with an smb: scheme",
            reference: "RFC 9700 §4.13", stage: .discovery, expectation: .rejected(.insecureEndpoint)
        ) {
            $0.discoveryOverrides["jwks_uri"] = "smb://idp.example.test/jwks"
        },
        .init(
            id: "oauth-discovery-algorithms-not-widened", summary: "metadata advertises none and HS256, token uses none",
            reference: "OIDC Core §3.1.3.7 step 7", stage: .idToken, expectation: .rejected(.unsupportedAlgorithm)
        ) {
            $0.discoveryOverrides["id_token_signing_alg_values_supported"] = ["none", "HS256", "RS256"]
            $0.signing = .unsigned
        }
    ]

    static let authorizationResponse: [HostileScenario] = [
        .init(
            id: "oidcc-client-test-wrong-state", summary: "state differs from the one sent",
            reference: "RFC 6749 §10.12, RFC 9700 §4.7", stage: .authorizationResponse, expectation: .rejected(.stateMismatch)
        ) {
            $0.authorizationResponseOverrides["state"] = "forged-state"
        },
        .init(
            id: "oidcc-client-test-missing-state", summary: "state missing",
            reference: "RFC 6749 §4.1.2", stage: .authorizationResponse, expectation: .rejected(.missingState)
        ) {
            $0.authorizationResponseRemovals = ["state"]
        },
        .init(
            id: "rfc9207-wrong-iss", summary: "iss names another issuer (mix-up)",
            reference: "RFC 9207 §2.4, RFC 9700 §4.4", stage: .authorizationResponse, expectation: .rejected(.issuerParameterMismatch)
        ) {
            $0.authorizationResponseOverrides["iss"] = "https://attacker.example"
        },
        .init(
            id: "rfc9207-missing-iss", summary: "iss missing though metadata declares support",
            reference: "RFC 9207 §2.4", stage: .authorizationResponse, expectation: .rejected(.missingIssuerParameter)
        ) {
            $0.sendsIssParameter = false
        },
        .init(
            id: "oauth-authorization-error-response", summary: "error=access_denied with a description",
            reference: "RFC 6749 §4.1.2.1", stage: .authorizationResponse, expectation: .rejected(.authorizationFailed)
        ) {
            $0.authorizationError = ("access_denied", "The user declined")
        },
        .init(
            id: "oauth-duplicate-response-parameter", summary: "code appears twice",
            reference: "RFC 6749 §3.1", stage: .authorizationResponse, expectation: .rejected(.duplicateParameter)
        ) {
            $0.authorizationResponseOverrides["code"] = "second-code"
            $0.duplicatesCodeParameter = true
        },
        .init(
            id: "rfc9700-front-channel-tokens-ignored", summary: "access_token and id_token in the redirect",
            reference: "RFC 9700 §2.1.2", stage: .authorizationResponse, expectation: .accepted
        ) {
            $0.authorizationResponseOverrides["access_token"] = "front-channel-token"
            $0.authorizationResponseOverrides["id_token"] = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0."
        }
    ]

    static let tokenResponse: [HostileScenario] = [
        .init(
            id: "oauth-token-error-response", summary: "400 with error=invalid_request",
            reference: "RFC 6749 §5.2", stage: .tokenResponse, expectation: .rejected(.tokenRequestFailed)
        ) {
            $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_request"}"#.utf8), ["Content-Type": "application/json"])
        },
        .init(
            id: "oauth-token-server-error", summary: "500 without a body",
            reference: "RFC 6749 §5.2", stage: .tokenResponse, expectation: .rejected(.serverError)
        ) {
            $0.tokenResponseReplacement = (500, Data(), [:])
        },
        .init(
            id: "oauth-token-malformed-json", summary: "200 with a body that is not JSON",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            $0.tokenResponseReplacement = (200, Data("{\"access_token\": ".utf8), ["Content-Type": "application/json"])
        },
        .init(
            id: "oauth-token-oversized", summary: "a 2 MiB token response",
            reference: "RFC 9700 §4 (resource exhaustion)", stage: .tokenResponse, expectation: .rejected(.responseTooLarge)
        ) {
            $0.tokenResponseOverrides["padding"] = .string(String(repeating: "x", count: 2 << 20))
        },
        .init(
            id: "oauth-token-unknown-token-type", summary: "token_type=mac",
            reference: "RFC 6749 §7.1", stage: .tokenResponse, expectation: .rejected(.unsupportedTokenType)
        ) {
            $0.tokenResponseOverrides["token_type"] = "mac"
        },
        .init(
            id: "oauth-token-type-dpop-unrequested", summary: "token_type=DPoP though no DPoP proof was sent",
            reference: "RFC 9449 §5", stage: .tokenResponse, expectation: .rejected(.unsupportedTokenType)
        ) {
            $0.tokenResponseOverrides["token_type"] = "DPoP"
        },
        .init(
            id: "oauth-token-type-case-insensitive", summary: "token_type=bEaReR",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .accepted
        ) {
            $0.tokenResponseOverrides["token_type"] = "bEaReR"
        },
        .init(
            id: "oauth-token-missing-expires-in", summary: "no expires_in",
            reference: "RFC 6749 §5.1 (RECOMMENDED)", stage: .tokenResponse, expectation: .accepted
        ) {
            $0.tokenResponseRemovals = ["expires_in"]
        },
        .init(
            id: "oauth-token-redirect-refused", summary: "302 to another host",
            reference: "RFC 9700 §4.11", stage: .tokenResponse, expectation: .rejected(.unexpectedRedirect)
        ) {
            $0.tokenResponseReplacement = (302, Data(), ["Location": "https://attacker.example/token"])
        },
        .init(
            id: "hostile-token-expires-in-huge", summary: "expires_in 1e19 (overflows an integer)",
            reference: "RFC 6749 §5.1; clamped to 10 years", stage: .tokenResponse, expectation: .accepted
        ) {
            $0.tokenResponseOverrides["expires_in"] = 1e19
        },
        .init(
            id: "hostile-token-expires-in-negative", summary: "expires_in -3600",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            $0.tokenResponseOverrides["expires_in"] = -3600
        },
        .init(
            id: "hostile-token-expires-in-hex-string", summary: "expires_in \"0x1p64\" (a hex float string)",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            $0.tokenResponseOverrides["expires_in"] = "0x1p64"
        },
        .init(
            id: "hostile-token-expires-in-exponent-string", summary: "expires_in \"1e400\" (an exponent string)",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            $0.tokenResponseOverrides["expires_in"] = "1e400"
        },
        .init(
            id: "hostile-token-expires-in-nan-text", summary: "expires_in \"NaN\"",
            reference: "RFC 6749 §5.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            $0.tokenResponseOverrides["expires_in"] = "NaN"
        },
        .init(
            id: "rfc8259-token-invalid-utf8", summary: "a token response string with invalid UTF-8 bytes",
            reference: "RFC 8259 §8.1", stage: .tokenResponse, expectation: .rejected(.invalidResponse)
        ) {
            var body = Data(#"{"access_token":"abc"#.utf8)
            body.append(contentsOf: [0xC0, 0xAF, 0xFF])
            body.append(contentsOf: Data(#"","token_type":"Bearer"}"#.utf8))
            $0.tokenResponseReplacement = (200, body, ["Content-Type": "application/json"])
        },
        .init(
            id: "oidcc-client-test-missing-id-token", summary: "no id_token though openid was requested",
            reference: "OIDC Core §3.1.3.3", stage: .tokenResponse, expectation: .rejected(.missingIDToken)
        ) {
            $0.tokenResponseRemovals = ["id_token"]
        }
    ]
}
