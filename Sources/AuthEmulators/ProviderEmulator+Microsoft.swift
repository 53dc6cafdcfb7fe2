public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// The Microsoft identity platform's v2.0 endpoints for one tenant segment, in process: discovery at
    /// `https://login.microsoftonline.com/{tenant}/v2.0`, `oauth2/v2.0/authorize`, `oauth2/v2.0/token`,
    /// `discovery/v2.0/keys` and `oauth2/v2.0/logout` under `https://login.microsoftonline.com/{tenant}`; no revocation
    /// or introspection endpoint, no RFC 9207 `iss` parameter.
    ///
    /// Its quirks, as Microsoft documents them
    /// (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc,
    /// https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference):
    /// - `common` and `organizations` publish the issuer `https://login.microsoftonline.com/{tenantid}/v2.0`;
    ///   `consumers` and a tenant publish their own tenant's issuer;
    /// - ID tokens carry `tid` (the user's tenant), `ver: 2.0`, and `iss` with that tenant's id;
    /// - refused as the service refuses them (`invalid_request`): a personal account at `organizations`, a work
    ///   account at `consumers`, an account of another tenant at a tenant's endpoints, a request without `scope`, and
    ///   a `prompt` other than `login`, `none`, `consent`, `select_account`.
    ///
    /// Tests make hostile variants with `identityProvider.update { $0.idTokenClaimOverrides = … }` (a `tid` that the
    /// `iss` does not name, another tenant).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` would serve it over HTTP (`http://127.0.0.1:<port>`); `nil` in process.
    ///   - tenant: the endpoints' tenant segment (`common`, `organizations`, `consumers` or a tenant id), also put in
    ///     the configuration.
    ///   - userTenant: the signed-in user's tenant id (`TestIdentityProvider/microsoftUserTenantID`, a work tenant,
    ///     by default; the personal-accounts tenant for a personal account).
    ///   - allowedTenants: `allowed_tenants` in the configuration; `nil` for none.
    public static func microsoft(
        clock: any WallClock = SystemWallClock(),
        origin: URL? = nil,
        tenant: String = "common",
        userTenant: String = TestIdentityProvider.microsoftUserTenantID,
        allowedTenants: [String]? = nil
    ) -> ProviderEmulator {
        let idp = TestIdentityProvider.microsoft(clock: clock, origin: origin, tenant: tenant, userTenant: userTenant)
        var configuration: [String: JSONValue] = [
            "client_id": .string(TestIdentityProvider.microsoftClientID),
            "redirect_uri": .string((origin == nil ? TestIdentityProvider.microsoftRedirectURI : TestIdentityProvider.loopbackRedirectURI).absoluteString),
            "tenant": .string(tenant),
            "scope": "openid profile email offline_access"
        ]
        if let origin { configuration["authority"] = .string(origin.absoluteString) }
        if let allowedTenants { configuration["allowed_tenants"] = .array(allowedTenants.map(JSONValue.string)) }
        return ProviderEmulator(
            providerID: "microsoft",
            configuration: ProviderConfiguration(configuration),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: true,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated app registration's application (client) id.
    public static let microsoftClientID = "6731de76-14a6-49ae-97bc-6eba6914391e"
    /// The emulated app registration's redirect URI.
    public static let microsoftRedirectURI = URL(string: "msauth.com.example.app://auth")!
    /// The emulated user's work tenant id.
    public static let microsoftUserTenantID = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    /// The tenant of personal Microsoft accounts (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc).
    public static let microsoftPersonalAccountsTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// An identity provider configured as the Microsoft identity platform's v2.0 endpoints for `tenant`, signing in a
    /// user of `userTenant` (see `ProviderEmulator/microsoft(clock:origin:tenant:userTenant:allowedTenants:)`).
    public static func microsoft(
        clock: any WallClock = SystemWallClock(),
        origin: URL? = nil,
        tenant: String = "common",
        userTenant: String = microsoftUserTenantID
    ) -> TestIdentityProvider {
        let host = "https://login.microsoftonline.com"
        let personal = userTenant == microsoftPersonalAccountsTenantID
        var configuration = Configuration(
            // The user's tenant's issuer: what each ID token's `iss` names.
            issuer: URL(string: "\(host)/\(userTenant)/v2.0")!,
            clients: [Client(id: microsoftClientID, redirectURIs: [microsoftRedirectURI])],
            user: User(
                subject: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
                claims: [
                    "tid": .string(userTenant), "ver": "2.0", "oid": "00000000-0000-0000-66f3-3332eca7ea81",
                    "preferred_username": .string(personal ? "sam@outlook.com" : "sam@contoso.com"),
                    "email": .string(personal ? "sam@outlook.com" : "sam@contoso.com"), "name": "Sam Example"
                ])
        )
        configuration.endpointBase = URL(string: "\(host)/\(tenant)")!
        configuration.paths.discovery = "/v2.0/.well-known/openid-configuration"
        configuration.paths.authorize = "/oauth2/v2.0/authorize"
        configuration.paths.token = "/oauth2/v2.0/token"
        configuration.paths.jwks = "/discovery/v2.0/keys"
        configuration.paths.userinfo = "/oidc/userinfo"
        configuration.paths.endSession = "/oauth2/v2.0/logout"
        configuration.paths.deviceAuthorization = "/oauth2/v2.0/devicecode"
        configuration.quirks.discoveryRemovals = ["revocation_endpoint", "introspection_endpoint"]
        let documentIssuer: String
        switch tenant {
        case "common", "organizations": documentIssuer = "\(host)/{tenantid}/v2.0"
        case "consumers": documentIssuer = "\(host)/\(microsoftPersonalAccountsTenantID)/v2.0"
        default: documentIssuer = "\(host)/\(tenant)/v2.0"
        }
        configuration.quirks.discoveryExtras = ["issuer": .string(documentIssuer)]
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        configuration.quirks.validateAuthorization = { query, _ in microsoftRefusal(query, tenant: tenant, userTenant: userTenant) }
        configuration.displayName = "Microsoft"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    /// What the v2.0 authorization endpoint of `tenant` refuses for a user of `userTenant`, or `nil`.
    static func microsoftRefusal(_ query: [String: String], tenant: String, userTenant: String) -> String? {
        if (query["scope"] ?? "").isEmpty { return "The request must contain a 'scope' parameter." }
        let allowedPrompts: Set<Substring> = ["login", "none", "consent", "select_account"]
        if let prompt = query["prompt"], let bad = prompt.split(separator: " ").first(where: { !allowedPrompts.contains($0) }) {
            return "Invalid value for 'prompt': '\(bad)'."
        }
        let personal = userTenant == microsoftPersonalAccountsTenantID
        switch tenant {
        case "common": return nil
        case "organizations" where personal:
            return "Personal Microsoft accounts are not supported at the 'organizations' endpoint; use a work or school account."
        case "consumers" where !personal:
            return "Only personal Microsoft accounts can sign in at the 'consumers' endpoint."
        case "organizations", "consumers": return nil
        default:
            return tenant.lowercased() == userTenant.lowercased() || (tenant == microsoftPersonalAccountsTenantID && personal)
                ? nil : "The user account does not exist in tenant '\(tenant)'."
        }
    }
}
