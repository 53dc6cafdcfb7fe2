import Foundation

/// Everything that makes one identity provider different from plain OpenID Connect.
///
/// A provider is a value built from its configuration. The engine (``AuthClient``) runs the protocol — PKCE,
/// state, nonce, redirect validation, token exchange, ID token validation, storage — and asks the provider only
/// at the hooks below. Every hook has a default that gives standard OpenID Connect, so a provider overrides
/// only its variation:
///
/// 1. identity: ``id``, ``displayName``;
/// 2. configuration: ``init(configuration:)``, decoding the keys the vendor's SDK reads;
/// 3. endpoints: ``endpointSource`` (discovery, a custom document, or fixed), completed by ``completedMetadata(_:)``;
/// 4. the authorization request: ``authorizationParameters(for:)``;
/// 5. the token request: ``tokenRequestHeaders(for:)`` and ``tokenRequestParameters(for:)`` (computed at each request);
/// 6. extra validation of the result: ``validate(_:for:)``;
/// 7. ID token rules: ``idTokenPolicy``.
///
/// The engine owns the security parameters (`state`, `nonce`, `code_challenge`, `redirect_uri`, `client_id`,
/// `response_type`): a provider cannot replace them.
public protocol AuthProvider: Sendable {
    /// The stable lowercase id a registry selects this provider by, such as `"grab"`.
    static var id: ProviderID { get }
    /// A name to show people, such as `"Grab"`.
    static var displayName: String { get }

    /// Creates the provider from a configuration dictionary (an Info.plist section, a JSON file).
    ///
    /// - Throws: an ``AuthError`` naming each missing or invalid key.
    init(configuration: ProviderConfiguration) throws

    /// The app's registration with the provider.
    var client: ClientRegistration { get }
    /// Where the endpoints come from.
    var endpointSource: EndpointSource { get }
    /// The ID token validation rules. Default: ``IDTokenPolicy/standard``.
    var idTokenPolicy: IDTokenPolicy { get }
    /// How this provider departs from standard OAuth 2.0 / OpenID Connect behaviour (retries, a missing `state` or
    /// `token_type`, signed request objects, ephemeral web sessions). Default: ``ProviderBehavior/standard``.
    ///
    /// A new quirk is a new field of ``ProviderBehavior`` with the standard value as its default, never a new
    /// requirement here, so providers written before it keep compiling and keep their behaviour. (The five quirks
    /// that were requirements before — `tokenRequestRetries`, `acceptsResponsesWithoutState`, `tokenTypeWhenAbsent`,
    /// `usesSignedRequestObject`, `prefersEphemeralWebSession` — are read from here only: a provider that still
    /// declares them as properties of its own must move them into `behavior`.)
    var behavior: ProviderBehavior { get }

    /// Extra authorization request parameters (acr values, locales, vectors of trust, …). Default: none.
    func authorizationParameters(for request: SignInContext) -> [String: String]
    /// Extra headers for token requests (for example Schibsted's `X-OIDC: v1`), computed at each token request (an
    /// app may fetch them, as GOV.UK's SDK lets it). Default: none.
    ///
    /// - Throws: an error that fails the token request; nothing is sent then.
    func tokenRequestHeaders(for grant: TokenGrant) async throws -> [String: String]
    /// Extra form parameters for token requests, computed at each token request. Default: none.
    ///
    /// - Throws: an error that fails the token request; nothing is sent then.
    func tokenRequestParameters(for grant: TokenGrant) async throws -> [String: String]
    /// The provider's metadata completed with what its documents omit but the provider is known to serve (for
    /// example OneLogin's revocation endpoint beside its token endpoint). Called once per load, before the endpoint
    /// security check. Default: unchanged.
    func completedMetadata(_ metadata: ProviderMetadata) -> ProviderMetadata
    /// Provider-specific checks of a validated sign-in (for example a required MFA method). Default: none.
    ///
    /// - Throws: an ``AuthError`` (typically `provider_validation_failed`); nothing is stored then.
    func validate(_ result: SignInResult, for request: SignInContext) throws
    /// Who may sign in at all, from the validated ID token's claims (`nil` when the provider issued no ID token):
    /// for example Google's Workspace domain (`hd`) or Microsoft's tenant (`tid`). Unlike ``validate(_:for:)``, which
    /// checks what one authorization request asked for, the engine applies this to every way an identity arrives —
    /// a sign-in (in memory or resumed), a device sign-in, imported tokens, a native app's credential, every refresh
    /// that brings a new ID token, and ``AuthClient/verifyIDToken(_:nonce:)`` — so no path lets another domain or
    /// tenant in. Default: anyone the ID token checks accept.
    ///
    /// - Throws: an ``AuthError``; nothing is stored then, and `verifyIDToken` throws it. At a refresh, the new tokens
    ///   are not stored and the user is signed out (``AuthEvent/SignOutReason/identityRejected``): the provider says,
    ///   in a token it signed, that this user may no longer sign in.
    func validateIdentity(_ claims: IDTokenClaims?) throws
    /// The user's identity where the ID token does not (fully) give it, once a sign-in's tokens passed every other
    /// check and before anything is stored: GitHub reads its user API with the new access token; Apple keeps the name
    /// it posts only on a user's first sign-in. Called for sign-ins, device sign-ins and imported tokens. Default:
    /// `nil`, the ID token's claims are the identity.
    ///
    /// - Throws: an ``AuthError`` to refuse the user (GitHub without a verified email); nothing is stored then.
    func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity?
}

extension AuthProvider {
    /// The instance's provider id (``id`` of its type), handy on `any AuthProvider`.
    public var id: ProviderID { Self.id }
    /// Defaults to the id's text.
    public static var displayName: String { id.rawValue }
    /// Standard validation.
    public var idTokenPolicy: IDTokenPolicy { .standard }
    /// Standard behaviour.
    public var behavior: ProviderBehavior { .standard }
    /// No extra parameters.
    public func authorizationParameters(for request: SignInContext) -> [String: String] { [:] }
    /// No extra headers.
    public func tokenRequestHeaders(for grant: TokenGrant) -> [String: String] { [:] }
    /// No extra parameters.
    public func tokenRequestParameters(for grant: TokenGrant) -> [String: String] { [:] }
    /// No extra checks.
    public func validate(_ result: SignInResult, for request: SignInContext) throws {}
    /// Anyone the ID token checks accept.
    public func validateIdentity(_ claims: IDTokenClaims?) throws {}
    /// No identity beyond the ID token.
    public func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? { nil }
    /// Unchanged.
    public func completedMetadata(_ metadata: ProviderMetadata) -> ProviderMetadata { metadata }
}
