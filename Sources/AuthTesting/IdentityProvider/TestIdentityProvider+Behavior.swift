public import AuthCore
public import Foundation

extension TestIdentityProvider {
    /// How the identity provider misbehaves; the default is an honest, standards-conforming server.
    ///
    /// Each knob makes one response wrong in one way, so a test can assert the client's specific reaction.
    public struct Behavior: Sendable {
        /// How ID tokens are signed.
        public enum Signing: Sendable, Equatable {
            /// With the configured algorithm and key.
            case honest
            /// `alg: none` with an empty signature.
            case unsigned
            /// `HS256` with the RSA public key's DER bytes as the HMAC secret.
            case hmacWithRSAPublicKey
            /// A valid header and payload with a signature over different bytes.
            case corruptSignature
            /// With the rotated key set, which the JWKS does not publish until `Behavior/publishRotatedKeys`.
            case rotatedKey
            /// An ECDSA signature whose r half is zero (ES256 only).
            case ecdsaZeroR
            /// An ECDSA signature whose s half is zero (ES256 only).
            case ecdsaZeroS
        }

        /// The `interval` of device authorization responses, in seconds (RFC 8628's default: 5).
        public var devicePollInterval = 5
        /// The `expires_in` of device codes, in seconds.
        public var deviceCodeLifetime: TimeInterval = 600
        /// How many device-code token requests are answered `slow_down` before the real answer.
        public var deviceSlowDowns = 0
        /// The pushed authorization request endpoint's answer instead of its own (status and JSON body), for hostile
        /// tests: a missing `request_uri`, an absurd `expires_in`, an OAuth error. Set, it serves the endpoint even without
        /// `Configuration/pushedAuthorization` (discovery names it only through ``discoveryOverrides``).
        public var pushedAuthorizationAnswer: (status: Int, body: [String: JSONValue])?
        /// The `WWW-Authenticate` value every step-up resource (``StepUpSettings``) answers a valid token with, `401`,
        /// whatever the token's authentication: a resource that challenges again after a step-up, or a malformed
        /// challenge. `nil`: the honest resource.
        public var stepUpChallenge: String?
        /// Members to set in (or add to) the discovery document.
        public var discoveryOverrides: [String: JSONValue] = [:]
        /// Whether discovery advertises RFC 9207 `authorization_response_iss_parameter_supported`.
        public var advertisesIssParameter = true
        /// Whether authorization responses carry `iss`.
        public var sendsIssParameter = true
        /// Parameters to set in (or add to) authorization responses (`state`, `iss`, `access_token`, …).
        public var authorizationResponseOverrides: [String: String] = [:]
        /// Whether authorization responses carry `code` twice (the second from the overrides).
        public var duplicatesCodeParameter = false
        /// Parameters to remove from authorization responses.
        public var authorizationResponseRemovals: Set<String> = []
        /// Answer the authorization request with this OAuth error (and description) instead of a code.
        public var authorizationError: (error: String, description: String?)?
        /// Claims to set in (or add to) ID tokens.
        public var idTokenClaimOverrides: [String: JSONValue] = [:]
        /// Claims to remove from ID tokens.
        public var idTokenClaimRemovals: Set<String> = []
        /// Header members to set in ID tokens.
        public var idTokenHeaderOverrides: [String: JSONValue] = [:]
        /// Header members to remove from ID tokens (for example `kid`).
        public var idTokenHeaderRemovals: Set<String> = []
        /// How ID tokens are signed.
        public var signing: Signing = .honest
        /// How ID tokens are encrypted (JWE, RFC 7516) after signing: `nil` leaves them in the clear.
        public var idTokenEncryption: ResponseProtection?
        /// How user info answers are protected: `nil` answers JSON.
        public var userInfoProtection: ResponseProtection?
        /// Whether the JWKS also publishes the rotated keys.
        public var publishRotatedKeys = false
        /// Whether the JWKS stops publishing the primary keys (a withdrawn, perhaps compromised, key) while ID tokens
        /// are still signed with them.
        public var withdrawsPrimaryKeys = false
        /// The JWKS response's `Cache-Control` header, if any.
        public var jwksCacheControl: String?
        /// Members to set in (or add to) token responses.
        public var tokenResponseOverrides: [String: JSONValue] = [:]
        /// Members to remove from token responses.
        public var tokenResponseRemovals: Set<String> = []
        /// Members set in (or, with `null`, removed from) a token exchange answer only (RFC 8693 §2.2.1), after the
        /// token response's own overrides: a hostile exchange that leaves sign-ins alone.
        public var tokenExchangeOverrides: [String: JSONValue] = [:]
        /// Replace token responses entirely: status, body, headers.
        public var tokenResponseReplacement: (status: Int, body: Data, headers: [String: String])?
        /// Answer this many upcoming token requests with HTTP 503 (a transient outage), then recover.
        public var failingTokenRequests = 0
        /// Whether refresh responses omit the refresh token (the client must keep the old one).
        public var omitsRefreshTokenOnRefresh = false
        /// Claims to set in user info responses.
        public var userInfoOverrides: [String: JSONValue] = [:]
        /// Answer JWKS requests with this status (a failing key endpoint).
        public var jwksFailureStatus: Int?
        /// Answer revocation requests with this status.
        public var revocationFailureStatus: Int?

        /// Whether token requests with a valid DPoP proof still get a `Bearer` token (a server that ignores DPoP while
        /// advertising it).
        public var issuesBearerDespiteDPoP = false
        /// Whether every DPoP proof is answered `use_dpop_nonce` with a new nonce, however current its own (a server
        /// that never settles on a nonce).
        public var demandsNewDPoPNonceEveryTime = false
        /// The `WWW-Authenticate` a resource sends beside its `DPoP-Nonce` when a proof lacks the nonce, instead of
        /// `DPoP error="use_dpop_nonce", algs="…"` (a server that words its challenge differently, or not as RFC 9449 §9
        /// says).
        public var resourceNonceChallenge: String?

        /// How a response is signed and encrypted (`TestJWE`), honestly or not.
        public struct ResponseProtection: Sendable {
            /// The key management algorithm, such as `RSA-OAEP`; `nil` leaves the answer unencrypted (user info signed only).
            public var algorithm: String?
            /// The content encryption algorithm.
            public var encryption: String
            /// Whom the JWE is encrypted to.
            public var recipient: TestJWE.Recipient
            /// User info only: whether the answer is a JWT signed with the provider's key (`false`: JSON inside).
            public var signsUserInfo: Bool
            /// User info only: whether the signed JWT is `alg: none` (an unsigned token).
            public var unsignedUserInfo: Bool
            /// Whether the tag is tampered with after encryption.
            public var tamperedTag: Bool

            /// Creates a protection; by default RSA-OAEP / A256GCM to the test client's RSA key.
            public init(
                algorithm: String? = "RSA-OAEP", encryption: String = "A256GCM", recipient: TestJWE.Recipient = .clientRSA,
                signsUserInfo: Bool = false, unsignedUserInfo: Bool = false, tamperedTag: Bool = false
            ) {
                self.algorithm = algorithm
                self.encryption = encryption
                self.recipient = recipient
                self.signsUserInfo = signsUserInfo
                self.unsignedUserInfo = unsignedUserInfo
                self.tamperedTag = tamperedTag
            }

            /// `plaintext` as this protection encrypts it (`nil` algorithm: `plaintext` itself, as text).
            func apply(_ plaintext: Data, contentType: String?) -> String {
                guard let algorithm else { return String(decoding: plaintext, as: UTF8.self) }
                // Encrypting with the fixed test keys cannot fail.
                return try! TestJWE.encrypt(
                    plaintext, algorithm: algorithm, encryption: encryption, to: recipient,
                    header: contentType.map { ["cty": .string($0)] } ?? [:], tamper: tamperedTag ? TestJWE.flipTagBit : { _ in }
                )
            }
        }

        /// An honest server.
        public init() {}
    }
}
