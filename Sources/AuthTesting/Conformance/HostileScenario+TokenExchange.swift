import AuthCore
import Foundation

extension HostileScenario {
    /// A token answer whose `device_secret` is not the one its ID token's `ds_hash` binds (OpenID Connect Native SSO
    /// for Mobile Apps 1.0 §3.1–3.2): a device secret of another app family or sign-in. The sign-in is refused before
    /// anything is stored, so no app of the family can present it.
    static let nativeSSO: [HostileScenario] = [
        .init(
            id: "native-sso-device-secret-other-family", summary: "a device_secret from another app family (ds_hash binds another)",
            reference: "OpenID Connect Native SSO 1.0 §3.1–3.2", stage: .tokenResponse,
            expectation: .rejected(AuthClient.deviceSecretMismatchCode)
        ) {
            $0.tokenResponseOverrides["device_secret"] = "ds-of-another-app-family"
            $0.idTokenClaimOverrides["ds_hash"] = .string(IDTokenValidator.accessTokenHash(Secret("ds-of-this-app-family"), algorithm: .rs256))
        }
    ]

    /// Token exchange answers (RFC 8693 §2.2.1) a correct client refuses, each with its own code, keeping nothing and
    /// leaving the session's own credential as it was. Not part of ``all``, which signs in: AuthTokenExchange's tests
    /// sign in honestly, then exchange against a provider misbehaving this way (``TestIdentityProvider/Behavior/tokenExchangeOverrides``).
    public static let tokenExchangeAnswers: [HostileScenario] = [
        .init(
            id: "rfc8693-exchange-answer-other-audience", summary: "an exchange answer for another audience than asked (its audience member)",
            reference: "RFC 8693 §2.1", stage: .tokenExchange, expectation: .rejected("exchange_audience_mismatch")
        ) { $0.tokenExchangeOverrides["audience"] = "https://evil.example" },
        .init(
            id: "rfc8693-exchange-answer-jwt-for-other-audience", summary: "an exchange answer whose JWT's aud is another audience",
            reference: "RFC 8693 §2.1, RFC 7519 §4.1.3", stage: .tokenExchange, expectation: .rejected("exchange_audience_mismatch")
        ) {
            let jwt = TestJWT.make(header: ["alg": "RS256", "typ": "at+jwt"], claims: ["aud": "https://evil.example", "sub": "user-1234"]) {
                TestSigningKeys.primary.sign($0, algorithm: .rs256)
            }
            $0.tokenExchangeOverrides["access_token"] = .string(jwt)
        },
        .init(
            id: "rfc8693-exchange-answer-without-issued-token-type", summary: "an exchange answer without issued_token_type",
            reference: "RFC 8693 §2.2.1", stage: .tokenExchange, expectation: .rejected("missing_issued_token_type")
        ) { $0.tokenExchangeOverrides["issued_token_type"] = .null },
        .init(
            id: "rfc8693-exchange-answer-other-issued-token-type", summary: "an exchange answer issuing a refresh token where an access token was asked",
            reference: "RFC 8693 §2.1, §2.2.1", stage: .tokenExchange, expectation: .rejected("issued_token_type_mismatch")
        ) { $0.tokenExchangeOverrides["issued_token_type"] = "urn:ietf:params:oauth:token-type:refresh_token" }
    ]
}
