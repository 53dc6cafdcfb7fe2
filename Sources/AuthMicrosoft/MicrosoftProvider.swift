public import AuthCore
public import Foundation

/// Sign in with Microsoft (Microsoft Entra ID, the Microsoft identity platform v2.0 endpoints), with its multi-tenant
/// quirks handled.
///
/// - Endpoints from discovery at `https://login.microsoftonline.com/{tenant}/v2.0`, where the tenant is `common`
///   (work, school and personal accounts), `organizations` (work and school only), `consumers` (personal Microsoft
///   accounts only), or one tenant's id or domain
///   (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc#find-your-apps-openid-configuration-document-uri).
/// - The multi-tenant endpoints' discovery document names the issuer
///   `https://login.microsoftonline.com/{tenantid}/v2.0`: it is accepted as such, and each ID token's `iss` must be
///   that template with the token's own `tid` filled in (AuthCore's `IssuerTemplate`), as Microsoft asks apps to validate
///   (https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference#payload-claims).
/// - `organizations` refuses a token from the personal-accounts tenant `9188040d-6c67-4c5b-b112-36a304b66dad`,
///   `consumers` accepts only that tenant, a tenant id accepts only itself, and `allowed_tenants` narrows any of
///   them: another tenant is refused with `microsoft_tenant_not_allowed` and nothing is stored
///   (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc).
///
/// Configuration keys (a JSON file or a dictionary):
///
/// | key | required | meaning |
/// |---|---|---|
/// | `client_id` | yes | the application (client) id of the app registration |
/// | `redirect_uri` | yes | the registered redirect URI |
/// | `tenant` | no | `common` (default), `organizations`, `consumers`, a tenant id (GUID) or a tenant domain (`contoso.onmicrosoft.com`) |
/// | `allowed_tenants` | no | tenant ids (array or space-separated) whose users may sign in; required with a tenant domain, whose id the tokens carry |
/// | `client_secret` | no | a web app's client secret (never in an app) |
/// | `token_endpoint_auth_method` | no | `client_secret_post` (default with a secret, as Microsoft documents), `client_secret_basic`, `none` |
/// | `scope` | no | space-separated string or array; default `openid profile email offline_access` (`openid` added when missing) |
/// | `parameters` | no | a dictionary of extra authorization parameters (`domain_hint`, `login_hint`, …) |
/// | `ephemeral_session` | no | prefer an ephemeral browser session |
/// | `authority` | no | default `https://login.microsoftonline.com`; a national cloud's host, or an emulator |
public struct MicrosoftProvider: AuthProvider {
    /// `microsoft`.
    public static let id: ProviderID = "microsoft"
    /// `Microsoft`.
    public static let displayName = "Microsoft"
    /// `https://login.microsoftonline.com`.
    public static let defaultAuthority = URL(string: "https://login.microsoftonline.com")!
    /// The tenant of personal Microsoft accounts, `9188040d-6c67-4c5b-b112-36a304b66dad`
    /// (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc).
    public static let personalAccountsTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// Who may sign in: the `{tenant}` segment of the v2.0 endpoints.
    public enum Tenant: Sendable, Hashable {
        /// `common`: work, school and personal accounts.
        case common
        /// `organizations`: work and school accounts only (never the personal-accounts tenant).
        case organizations
        /// `consumers`: personal Microsoft accounts only.
        case consumers
        /// One tenant, by id (a GUID, lowercased) or by domain.
        case specific(String)

        /// Parses `common`, `organizations`, `consumers`, or a tenant id or domain.
        public init(_ text: String) {
            switch text.lowercased() {
            case "common": self = .common
            case "organizations": self = .organizations
            case "consumers": self = .consumers
            default: self = .specific(text.lowercased())
            }
        }

        /// The path segment.
        public var segment: String {
            switch self {
            case .common: "common"
            case .organizations: "organizations"
            case .consumers: "consumers"
            case .specific(let tenant): tenant
            }
        }

        /// The tenant id when this is one tenant named by its id (a GUID).
        var tenantID: String? {
            if case .specific(let tenant) = self, UUID(uuidString: tenant) != nil { return tenant }
            return nil
        }
    }

    /// `https://login.microsoftonline.com` or another cloud's (or an emulator's) authority.
    public let authority: URL
    /// The tenant of the endpoints.
    public let tenant: Tenant
    /// When set, only users of these tenant ids (lowercased) may sign in.
    public let allowedTenants: Set<String>?
    /// The client registration.
    public let client: ClientRegistration
    /// Extra authorization parameters sent with every request.
    public let additionalParameters: [String: String]
    /// Whether to prefer an ephemeral browser session.
    public let prefersEphemeralWebSession: Bool

    /// Creates a provider in code.
    ///
    /// - Throws: `invalid_configuration` for a tenant domain without `allowedTenants`, an allowed tenant that is not
    ///   a tenant id.
    public init(
        client: ClientRegistration,
        tenant: Tenant = .common,
        allowedTenants: Set<String>? = nil,
        additionalParameters: [String: String] = [:],
        prefersEphemeralWebSession: Bool = false,
        authority: URL = MicrosoftProvider.defaultAuthority
    ) throws {
        let allowed = allowedTenants.map { Set($0.map { $0.lowercased() }) }
        if let allowed, let bad = allowed.first(where: { UUID(uuidString: $0) == nil }) {
            throw AuthError(
                .invalidConfiguration, "allowed_tenants must list tenant ids (GUIDs), which is what ID tokens carry; '\(bad)' is not one.",
                providerID: Self.id, configurationKey: "allowed_tenants"
            )
        }
        if case .specific = tenant, tenant.tenantID == nil, allowed == nil {
            throw AuthError(
                .invalidConfiguration,
                "The tenant '\(tenant.segment)' is a domain: Microsoft's tokens name the tenant by its id, so list that id in allowed_tenants (or configure the tenant by its id).",
                providerID: Self.id, configurationKey: "allowed_tenants"
            )
        }
        self.client = client
        self.tenant = tenant
        self.allowedTenants = allowed
        self.additionalParameters = additionalParameters
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
        self.authority = URL(string: authority.absoluteString.trimmingSuffix("/")) ?? authority
    }

    /// Creates a provider from the keys in the table above.
    ///
    /// - Throws: `missing_configuration_key` naming `client_id` or `redirect_uri`; `invalid_configuration` for a value
    ///   of the wrong shape (see ``init(client:tenant:allowedTenants:additionalParameters:prefersEphemeralWebSession:authority:)``).
    public init(configuration: ProviderConfiguration) throws {
        let client = try configuration.openIDClient(
            providerID: Self.id, defaultScopes: ["openid", "profile", "email", "offline_access"], defaultMethodWithSecret: .clientSecretPost
        )
        let authority =
            configuration["authority"] == nil
            ? Self.defaultAuthority : try configuration.requiredURL("authority", providerID: Self.id)
        let tenant = configuration.string("tenant").flatMap { $0.isEmpty ? nil : $0 } ?? "common"
        if tenant.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace }) {
            throw AuthError(
                .invalidConfiguration, "The configuration key 'tenant' must be common, organizations, consumers, a tenant id or a domain.", providerID: Self.id,
                configurationKey: "tenant")
        }
        try self.init(
            client: client,
            tenant: Tenant(tenant),
            allowedTenants: configuration.scopes("allowed_tenants").map(Set.init),
            additionalParameters: try configuration.authorizationParameters(providerID: Self.id),
            prefersEphemeralWebSession: configuration.bool("ephemeral_session") ?? false,
            authority: authority
        )
    }

    /// `{authority}/{tenant}/v2.0`, where discovery starts.
    public var issuer: URL { URL(string: "\(authority.absoluteString)/\(tenant.segment)/v2.0")! }

    /// OpenID Connect discovery at `{authority}/{tenant}/v2.0/.well-known/openid-configuration`.
    public var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    /// One tenant named by id: the standard policy (its discovery document and tokens name that tenant's issuer
    /// exactly). Otherwise the issuer template `{authority}/{tenantid}/v2.0` filled in with each token's `tid`.
    public var idTokenPolicy: IDTokenPolicy {
        if tenant.tenantID != nil { return .standard }
        return IDTokenPolicy(issuerTemplate: IssuerTemplate("\(authority.absoluteString)/{tenantid}/v2.0", placeholder: "{tenantid}", claim: "tid"))
    }

    /// An ephemeral web session when configured so; otherwise standard.
    public var behavior: ProviderBehavior { ProviderBehavior(prefersEphemeralWebSession: prefersEphemeralWebSession) }

    /// The configured extra parameters.
    public func authorizationParameters(for request: SignInContext) -> [String: String] { additionalParameters }

    /// The tenant rules: `organizations` refuses the personal-accounts tenant, `consumers` accepts only it, a tenant
    /// id accepts only itself, and ``allowedTenants`` narrows each. The engine applies them to sign-ins, device
    /// sign-ins, imported tokens, native credentials, refreshed ID tokens (a refusal then signs the user out) and
    /// `verifyIDToken` alike.
    ///
    /// - Throws: `microsoft_tenant_not_allowed`; nothing is stored then.
    public func validateIdentity(_ claims: IDTokenClaims?) throws {
        guard let tid = claims?["tid"]?.stringValue?.lowercased(), !tid.isEmpty else {
            if tenant == .common, allowedTenants == nil { return }
            throw refusal("The ID token has no 'tid' claim, so its tenant cannot be checked.")
        }
        switch tenant {
        case .organizations where tid == Self.personalAccountsTenantID:
            throw refusal("Personal Microsoft accounts cannot sign in to this app (tenant 'organizations').")
        case .consumers where tid != Self.personalAccountsTenantID:
            throw refusal("Only personal Microsoft accounts can sign in to this app (tenant 'consumers'); the account is from tenant \(tid).")
        case .specific where tenant.tenantID != nil && tid != tenant.tenantID:
            throw refusal("The account is from tenant \(tid), not \(tenant.segment).")
        default: break
        }
        if let allowedTenants, !allowedTenants.contains(tid) {
            throw refusal("The account is from tenant \(tid), which is not in allowed_tenants.")
        }
    }

    private func refusal(_ message: String) -> AuthError {
        AuthError(.microsoftTenantNotAllowed, message, providerID: Self.id)
    }
}

extension AuthError.Code {
    /// Microsoft: the signed-in account's tenant (`tid`) is not one this app accepts (`organizations` and a personal
    /// account, `consumers` and a work account, another tenant than the configured one, or one outside
    /// `allowed_tenants`).
    public static let microsoftTenantNotAllowed: Self = "microsoft_tenant_not_allowed"
}
