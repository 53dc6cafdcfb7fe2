public import AuthCore
public import Foundation

/// ID token validation over a fixed key set, for the fuzzers and the ID token benchmarks (ours against the raw
/// signature check). Not API: apps verify ID tokens with `AuthClient.verifyIDToken(_:nonce:)`, which also fetches
/// and caches the provider's keys.
public struct IDTokenHarness: Sendable {
    private let validator: IDTokenValidator
    private let keySet: JSONWebKeySet

    /// A validator for `issuer` and `clientID` with `policy`, taking keys from the JWKS document `jwks`.
    public init(issuer: String, clientID: String, policy: IDTokenPolicy = .standard, jwks: Data) throws {
        validator = IDTokenValidator(issuer: issuer, clientID: clientID, policy: policy)
        keySet = try JSONWebKeySet(data: jwks)
    }

    /// Validates `token` completely: parse, pinned algorithm, key lookup, signature, every claim rule.
    public func validate(_ token: String, nonce: String?, accessToken: Secret? = nil, now: Date) throws -> IDTokenClaims {
        try validator.validate(token, keySet: keySet, nonce: nonce, accessToken: accessToken, now: now)
    }

    /// Parses `token` as a compact JWS; `false` when it is refused.
    public static func parseJWS(_ token: String) -> Bool {
        (try? CompactJWS(parsing: token)) != nil
    }
}
