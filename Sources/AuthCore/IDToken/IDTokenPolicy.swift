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
    /// Other spellings of the provider's issuer that `iss` (and a discovery document's `issuer`) may carry, each
    /// compared as ``issuerComparison`` says. Standard: none, only the provider's issuer.
    ///
    /// Google documents both `https://accounts.google.com` and `accounts.google.com` as its ID tokens' `iss`.
    public var alternativeIssuers: Set<String>
    /// A multi-tenant issuer whose tokens each name their own tenant (Microsoft's
    /// `https://login.microsoftonline.com/{tenantid}/v2.0`). Standard: `nil`, one fixed issuer.
    ///
    /// When set, a discovery document may name the template itself (or the template filled in with one path
    /// segment, a tenant named by domain resolving to its id) as its issuer, and an ID token's or logout token's
    /// `iss` must equal the template filled in with the token's own claim (``IssuerTemplate/claim``): the
    /// configured issuer is no longer accepted as `iss`. Which tenants may sign in is the provider's decision.
    ///
    /// Package-only while AuthMicrosoft is its one user: it becomes public when a provider outside the package needs it.
    package var issuerTemplate: IssuerTemplate?

    /// Creates a policy.
    public init(
        allowedAlgorithms: [JWSAlgorithm] = [.rs256, .es256],
        clockSkew: TimeInterval = 60,
        maximumIssuedAtAge: TimeInterval = 600,
        trustedAudiences: Set<String> = [],
        issuerComparison: IssuerComparison = .exact,
        alternativeIssuers: Set<String> = []
    ) {
        self.allowedAlgorithms = allowedAlgorithms
        self.clockSkew = clockSkew
        self.maximumIssuedAtAge = maximumIssuedAtAge
        self.trustedAudiences = trustedAudiences
        self.issuerComparison = issuerComparison
        self.alternativeIssuers = alternativeIssuers
    }

    /// Creates a standard policy whose issuer is `issuerTemplate` (AuthMicrosoft's multi-tenant endpoints).
    package init(issuerTemplate: IssuerTemplate) {
        self.init()
        self.issuerTemplate = issuerTemplate
    }

    /// The standard policy: RS256 and ES256, 60 s of clock skew, `iat` at most 10 minutes old.
    public static let standard = IDTokenPolicy()

    /// Whether `claimed` names `expected` (or one of ``alternativeIssuers``) under this policy's comparison.
    package func issuerMatches(_ claimed: String, expected: String) -> Bool {
        compare(claimed, expected) || alternativeIssuers.contains { compare(claimed, $0) }
    }

    /// Whether a discovery document naming `documentIssuer` belongs to the configured issuer `expected`: as
    /// ``issuerMatches(_:expected:)``, or, with an ``issuerTemplate``, the template as-is or filled in.
    package func discoveryIssuerMatches(_ documentIssuer: String, expected: String) -> Bool {
        issuerMatches(documentIssuer, expected: expected) || issuerTemplate?.describes(documentIssuer) == true
    }

    /// Whether a token's `claimed` issuer is acceptable: with an ``issuerTemplate``, only the template filled in with
    /// the token's own claim (read through `claim`); otherwise as ``issuerMatches(_:expected:)``.
    package func tokenIssuerMatches(_ claimed: String, expected: String, claim: (String) -> String?) -> Bool {
        guard let issuerTemplate else { return issuerMatches(claimed, expected: expected) }
        guard let value = claim(issuerTemplate.claim), let filled = issuerTemplate.issuer(for: value) else { return false }
        return claimed == filled
    }

    private func compare(_ claimed: String, _ expected: String) -> Bool {
        switch issuerComparison {
        case .exact: return claimed == expected
        case .ignoringTrailingSlash: return claimed.trimmingSuffix("/") == expected.trimmingSuffix("/")
        }
    }
}

/// An issuer with a placeholder each token fills in from one of its claims: Microsoft's multi-tenant endpoints
/// (`common`, `organizations`, `consumers`) publish `https://login.microsoftonline.com/{tenantid}/v2.0`, and each
/// ID token's `iss` is that with its own `tid`.
/// (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc)
///
/// Package-only, as ``IDTokenPolicy/issuerTemplate`` is: AuthMicrosoft is its one user.
package struct IssuerTemplate: Sendable, Hashable {
    /// The template, such as `https://login.microsoftonline.com/{tenantid}/v2.0`.
    package var template: String
    /// The placeholder in ``template``, such as `{tenantid}`.
    package var placeholder: String
    /// The token claim that fills the placeholder, such as `tid`.
    package var claim: String

    /// Creates a template; `template` must contain `placeholder` once.
    package init(_ template: String, placeholder: String, claim: String) {
        self.template = template
        self.placeholder = placeholder
        self.claim = claim
    }

    /// The issuer for one value of the claim, or `nil` when the value is empty or is not one plain path segment
    /// (a `/`, `?`, `#`, `%`, `@`, `:`, a brace or whitespace would let a token name another URL).
    package func issuer(for value: String) -> String? {
        guard Self.isPlainSegment(value), template.components(separatedBy: placeholder).count == 2 else { return nil }
        return template.replacingOccurrences(of: placeholder, with: value)
    }

    /// Whether `documentIssuer` is the template itself, or the template filled in with one plain segment.
    package func describes(_ documentIssuer: String) -> Bool {
        if documentIssuer == template { return true }
        let parts = template.components(separatedBy: placeholder)
        guard parts.count == 2, documentIssuer.count > parts[0].count + parts[1].count,
            documentIssuer.hasPrefix(parts[0]), documentIssuer.hasSuffix(parts[1])
        else { return false }
        let value = documentIssuer.dropFirst(parts[0].count).dropLast(parts[1].count)
        return Self.isPlainSegment(String(value))
    }

    private static func isPlainSegment(_ value: String) -> Bool {
        !value.isEmpty && value != "." && value != ".."
            && value.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "-._~".unicodeScalars.contains($0) }
    }
}

extension String {
    package func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
