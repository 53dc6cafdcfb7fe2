import AuthCore
import Foundation

/// Verifies a core identity JWT as GOV.UK One Login's technical documentation requires: an ES256 signature by a key
/// from GOV.UK's DID document (the `kid` names the controller and key), `iss` the identity issuer, `aud` the service,
/// `sub` the signed-in user, a `vot` that reaches the requested level of confidence, and `nbf`/`iat`/`exp` around now.
struct CoreIdentityVerifier {
    let configuration: GOVUKServiceConfiguration
    let client: AuthClient

    func verify(_ token: String, subject: String) async throws -> CoreIdentity {
        func refuse(_ code: AuthError.Code, _ message: String) -> AuthError {
            AuthError(code, "The core identity JWT " + message, providerID: GOVUKProvider.id)
        }
        guard let jws = try? CompactJWS(parsing: token) else { throw refuse(.malformedIdentityClaim, "is not a compact JWS.") }
        guard jws.header.algorithm == JWSAlgorithm.es256.rawValue else {
            throw refuse(.unsupportedAlgorithm, "is signed with '\(jws.header.algorithm)'; GOV.UK signs it with ES256 only.")
        }
        guard let keyID = jws.header.keyID else { throw refuse(.missingKeyID, "has no 'kid'.") }
        let controller = configuration.didController
        guard keyID.split(separator: "#", maxSplits: 1).first.map(String.init) == controller else {
            throw refuse(.unknownKeyID, "names the key '\(keyID)', which \(controller) does not control.")
        }
        let now = client.clock.now()
        let key: JSONWebKey
        do {
            key = try await client.publishedKey(id: keyID, for: .es256, at: configuration.didDocumentURL, now: now) {
                try DIDDocument.assertionKeys($0, controller: controller)
            }
        } catch let error as AuthError where error.code == .unknownKeyID {
            throw refuse(.unknownKeyID, "names the key '\(keyID)', which GOV.UK's DID document does not publish.")
        }
        let claims: [String: JSONValue]
        do {
            claims = try jws.verifiedClaims(with: key, algorithm: .es256, tokenKind: "core identity JWT", malformed: .malformedIdentityClaim)
        } catch let error as AuthError {
            throw error.attributed(to: GOVUKProvider.id)
        }
        guard claims["iss"]?.stringValue == configuration.identityIssuer else {
            throw refuse(.invalidIssuer, "was issued by '\(claims["iss"]?.stringValue ?? "nobody")', not '\(configuration.identityIssuer)'.")
        }
        let audience = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard audience == [configuration.clientID] else {
            throw refuse(.invalidAudience, "is addressed to \(audience), not to this service (\(configuration.clientID)).")
        }
        guard claims["sub"]?.stringValue == subject else {
            throw refuse(.subjectMismatch, "names another user than the signed-in one.")
        }
        let skew: TimeInterval = 60
        guard let expiry = claims["exp"]?.timestampValue else { throw refuse(.malformedIdentityClaim, "has no valid 'exp'.") }
        guard expiry.timeIntervalSince(now) > -skew else {
            throw refuse(.tokenExpired, "expired at \(expiry); fetch user info again soon after sign-in.")
        }
        for name in ["nbf", "iat"] {
            if let value = claims[name] {
                guard let date = value.timestampValue, date.timeIntervalSince(now) <= skew else {
                    throw refuse(.invalidIssuedAt, "'\(name)' is invalid or in the future.")
                }
            }
        }
        guard let votText = claims["vot"]?.stringValue, let level = VectorOfTrust.LevelOfConfidence(text: votText) else {
            throw refuse(.vectorOfTrustNotSatisfied, "has no level of confidence in 'vot'.")
        }
        let requested = configuration.vectorsOfTrust.compactMap(\.levelOfConfidence)
        guard requested.isEmpty || requested.contains(where: { level >= $0 }) else {
            throw refuse(
                .vectorOfTrustNotSatisfied,
                "states \(level), below the requested \(VectorOfTrust.parameter(for: configuration.vectorsOfTrust)); the identity is refused rather than downgraded."
            )
        }
        return try CoreIdentity(verifiedClaims: claims, subject: subject, level: level)
    }
}
