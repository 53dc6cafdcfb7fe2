public import Foundation

/// How strictly ID tokens are validated; the defaults follow OpenID Connect Core §3.1.3.7.
public struct IDTokenPolicy: Sendable, Hashable {
    /// How the `iss` claim is compared with the provider's issuer.
    public enum IssuerComparison: Sendable, Hashable {
        /// Exact string equality (the standard).
        case exact
        /// Equality after removing one trailing `/` from both (Schibsted's SDK compares this way).
        case ignoringTrailingSlash
    }

    /// The accepted signature algorithms. Pinned by the client: metadata never widens it, and `none` and the
    /// HMAC algorithms are never accepted whatever this list says.
    public var allowedAlgorithms: [JWSAlgorithm]
    /// Tolerated clock difference for `exp` and `iat`.
    public var clockSkew: TimeInterval
    /// The oldest acceptable `iat`, measured back from now.
    public var maximumIssuedAtAge: TimeInterval
    /// Audiences besides the client id that may appear in `aud` (by default none: extra audiences are rejected).
    public var trustedAudiences: Set<String>
    /// How `iss` is compared.
    public var issuerComparison: IssuerComparison

    /// Creates a policy.
    public init(
        allowedAlgorithms: [JWSAlgorithm] = [.rs256, .es256],
        clockSkew: TimeInterval = 60,
        maximumIssuedAtAge: TimeInterval = 600,
        trustedAudiences: Set<String> = [],
        issuerComparison: IssuerComparison = .exact
    ) {
        self.allowedAlgorithms = allowedAlgorithms
        self.clockSkew = clockSkew
        self.maximumIssuedAtAge = maximumIssuedAtAge
        self.trustedAudiences = trustedAudiences
        self.issuerComparison = issuerComparison
    }

    /// The standard policy: RS256 and ES256, 60 s of clock skew, `iat` at most 10 minutes old.
    public static let standard = IDTokenPolicy()

    /// Whether `claimed` names `expected` under this policy's comparison.
    package func issuerMatches(_ claimed: String, expected: String) -> Bool {
        switch issuerComparison {
        case .exact: return claimed == expected
        case .ignoringTrailingSlash: return claimed.trimmingSuffix("/") == expected.trimmingSuffix("/")
        }
    }
}

extension String {
    package func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
