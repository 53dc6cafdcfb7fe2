import BenchmarkFixtures
import JWTKit

/// The claims jwt-kit checks, matching ours as closely as its API allows (signature, exp, aud, iss, nonce).
struct PeerPayload: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let nonce: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired(currentDate: TokenFixture.now)
        try aud.verifyIntendedAudience(includes: "test-client")
        guard iss.value == "https://idp.example.test", nonce == TokenFixture.nonce else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer or nonce")
        }
    }
}
