package import AuthCore
import Foundation

/// A provider that behaves exactly as `base` does, except for its identity rule, which is `rule`: how a test proves
/// that every way a user is signed in — and every refresh — runs the provider's
/// ``AuthCore/AuthProvider/validateIdentity(_:)``.
package struct IdentityRuleProvider: AuthProvider {
    package static let id: ProviderID = "identity-rule"
    /// The provider every other hook forwards to.
    package let base: any AuthProvider
    /// The identity rule: throws to refuse the claims (`nil` when the provider issued no ID token).
    package let rule: @Sendable (IDTokenClaims?) throws -> Void

    /// Built in code only.
    package init(configuration: ProviderConfiguration) throws {
        throw AuthError(.invalidConfiguration, "IdentityRuleProvider is built in code, around another provider.")
    }

    /// `base` with `rule` as its identity rule.
    package init(_ base: any AuthProvider, rule: @escaping @Sendable (IDTokenClaims?) throws -> Void) {
        self.base = base
        self.rule = rule
    }

    package var client: ClientRegistration { base.client }
    package var endpointSource: EndpointSource { base.endpointSource }
    package var idTokenPolicy: IDTokenPolicy { base.idTokenPolicy }
    package var behavior: ProviderBehavior { base.behavior }
    package func authorizationParameters(for request: SignInContext) -> [String: String] { base.authorizationParameters(for: request) }
    package func tokenRequestHeaders(for grant: TokenGrant) async throws -> [String: String] { try await base.tokenRequestHeaders(for: grant) }
    package func tokenRequestParameters(for grant: TokenGrant) async throws -> [String: String] { try await base.tokenRequestParameters(for: grant) }
    package func completedMetadata(_ metadata: ProviderMetadata) -> ProviderMetadata { base.completedMetadata(metadata) }
    package func validate(_ result: SignInResult, for request: SignInContext) throws { try base.validate(result, for: request) }
    package func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? { try await base.resolveIdentity(context) }

    /// `rule`, after `base`'s own identity rule.
    package func validateIdentity(_ claims: IDTokenClaims?) throws {
        try base.validateIdentity(claims)
        try rule(claims)
    }
}
