public import AuthCore
public import AuthTesting
import Crypto
public import Foundation
import _CryptoExtras

extension ProviderEmulator {
    /// GOV.UK One Login as a government web service sees it, in process, answering like GOV.UK's own simulator
    /// (`govuk-one-login/simulator`): discovery with the issuer's trailing slash and `Cache-Control: max-age=86400`;
    /// `private_key_jwt` (RS256–PS256 assertions, audience the token endpoint or the issuer) or `client_secret_post`
    /// only, with the simulator's answers to bad client authentication; no refresh tokens; ES256 ID tokens with
    /// `vot`, `vtm` and `sid`; user info by scope, with identity claims — a core identity JWT signed by a key published
    /// in `/.well-known/did.json`, addresses, return codes — when a `P` level and those claims were requested.
    ///
    /// Stricter than the simulator where it is lax: a replayed assertion `jti` is refused, codes are single-use and
    /// expire, token responses are `no-store`. The configuration signs in with the key client and asks for
    /// `Cl.Cm.P2` with the core identity, address and return code claims.
    ///
    /// - Parameter clock: the clock the emulator stamps tokens with.
    /// - Parameter issuer: the emulator's issuer (trailing slash included); GOV.UK's integration environment by
    ///   default, `http://127.0.0.1:<port>/` when `auth-emulator emulate` serves it over HTTP.
    /// - Parameter user: who signs in (by default the simulator's user with a proved identity; see
    ///   `TestIdentityProvider/govUKServiceUserWithoutIdentity(returnCodes:)` for the return-code case).
    public static func govUKService(
        clock: any WallClock = SystemWallClock(),
        issuer: URL = TestIdentityProvider.govUKServiceIssuer,
        user: TestIdentityProvider.User = TestIdentityProvider.govUKServiceUser
    ) -> ProviderEmulator {
        let idp = TestIdentityProvider.govUKService(clock: clock, issuer: issuer, user: user)
        return ProviderEmulator(
            providerID: "govuk",
            configuration: ProviderConfiguration([
                "kind": "service",
                "issuer": .string(idp.configuration.issuer.absoluteString),
                "client_id": .string(TestIdentityProvider.govUKServiceClientID),
                "private_key": .string(GOVUKServiceKeys.clientKeyPEM),
                "private_key_alg": "RS256",
                "redirect_uri": .string(TestIdentityProvider.govUKServiceRedirectURI.absoluteString),
                "post_logout_redirect_uri": .string(TestIdentityProvider.govUKServicePostLogoutRedirectURI.absoluteString),
                "scope": "openid email phone",
                "vtr": ["Cl.Cm.P2"],
                "ui_locales": "en",
                "claims": ["coreIdentityJWT", "address", "returnCode"],
                "identity_issuer": .string(issuer.absoluteString),
                "did_url": .string(idp.endpoint("/.well-known/did.json").absoluteString)
            ]),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web service",
            supportsRefresh: false,
            identityProvider: idp
        )
    }
}

/// The emulated service's keys: the client's RSA key (registered with the emulator) and GOV.UK's identity signer.
public enum GOVUKServiceKeys {
    private static let clientKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    private static let identityKey = P256.Signing.PrivateKey()

    /// TEST ONLY. The emulated service's private key (PEM), made for this process; it protects nothing.
    public static var clientKeyPEM: String { clientKey.pemRepresentation }

    /// The emulated service's public key as a JWK (what the service registers with GOV.UK One Login).
    public static var clientPublicJWK: [String: JSONValue] {
        // A freshly made RSA key always has its primitives.
        let primitives = try! clientKey.publicKey.getKeyPrimitives()
        return [
            "kty": "RSA", "n": .string(Base64URL.encode(primitives.modulus)),
            "e": .string(Base64URL.encode(primitives.publicExponent)), "kid": "service-key-1"
        ]
    }

    /// GOV.UK's identity key, emulated, for the default issuer: its DID document is served at the emulator's
    /// `/.well-known/did.json`, and its `iss` is the emulator's issuer, as GOV.UK's simulator does.
    public static var identitySigner: GOVUKIdentitySigner { identitySigner(for: TestIdentityProvider.govUKServiceIssuer) }

    /// The identity signer of an emulator at `issuer` (one key for the process, the controller from the issuer's host).
    public static func identitySigner(for issuer: URL) -> GOVUKIdentitySigner {
        GOVUKIdentitySigner(didDocumentURL: issuer.appendingPathComponent(".well-known/did.json"), issuer: issuer.absoluteString, privateKey: identityKey)
    }
}

extension TestIdentityProvider {
    /// The emulated service's default issuer: GOV.UK One Login's integration environment.
    public static let govUKServiceIssuer = URL(string: "https://oidc.integration.account.gov.uk/")!
    /// The emulated service's client id (`private_key_jwt`, allowed `P0` and `P2`, as the simulator's default client).
    public static let govUKServiceClientID = "govuk-service-emulator-client"
    /// A second client that authenticates with `client_secret_post` (authentication only, no identity).
    public static let govUKServiceSecretClientID = "govuk-service-secret-client"
    /// The secret of ``govUKServiceSecretClientID``.
    public static let govUKServiceSecret = "govuk-service-emulator-secret"
    /// The emulated service's registered redirect URI (and any `http://127.0.0.1:<port>/callback`).
    public static let govUKServiceRedirectURI = URL(string: "https://service.example.gov.uk/auth/callback")!
    /// The emulated service's registered post-logout redirect URI.
    public static let govUKServicePostLogoutRedirectURI = URL(string: "https://service.example.gov.uk/signed-out")!

    /// The simulator's default user: contact details and a proved identity (`P2`, GEOFFREY HEARNSHAW) with an address.
    public static let govUKServiceUser = User(
        subject: "urn:fdc:gov.uk:2022:emulated-service-user",
        claims: [
            "email": "test@example.com", "email_verified": true,
            "phone_number": "07123456789", "phone_number_verified": true,
            GOVUKServiceUserKeys.credential: .object(GOVUKIdentitySigner.simulatorCredential),
            GOVUKServiceUserKeys.levelOfConfidence: "P2",
            GOVUKServiceUserKeys.address: GOVUKIdentitySigner.simulatorAddress,
            GOVUKServiceUserKeys.returnCode: []
        ])

    /// A user whose identity GOV.UK could not prove: no core identity, and the return codes `codes`.
    public static func govUKServiceUserWithoutIdentity(returnCodes codes: [String]) -> User {
        User(
            subject: "urn:fdc:gov.uk:2022:emulated-unproven-user",
            claims: [
                "email": "unproven@example.com", "email_verified": true,
                GOVUKServiceUserKeys.returnCode: .array(codes.map { ["code": .string($0)] })
            ])
    }

    /// An identity provider configured as GOV.UK One Login for services (see ``ProviderEmulator/govUKService(clock:issuer:user:)``).
    /// Its clients registered the service's post-logout URI and the web samples' loopback `/auth/<provider>/signed-out`
    /// routes (any port), where the end-session endpoint returns with `state` as GOV.UK's "Log your users out" says.
    public static func govUKService(
        clock: any WallClock = SystemWallClock(),
        issuer: URL = govUKServiceIssuer,
        user: User = govUKServiceUser
    ) -> TestIdentityProvider {
        let loopback = URL(string: "http://127.0.0.1/callback")!
        var configuration = Configuration(
            issuer: issuer,
            signingAlgorithm: .es256,
            clients: [
                Client(
                    id: govUKServiceClientID, redirectURIs: [govUKServiceRedirectURI, loopback] + loopbackWebCallbackURIs,
                    publicKey: GOVUKServiceKeys.clientPublicJWK, postLogoutRedirectURIs: [govUKServicePostLogoutRedirectURI] + loopbackWebPostLogoutURIs
                ),
                Client(
                    id: govUKServiceSecretClientID, secret: govUKServiceSecret, redirectURIs: [govUKServiceRedirectURI, loopback] + loopbackWebCallbackURIs,
                    postLogoutRedirectURIs: [govUKServicePostLogoutRedirectURI] + loopbackWebPostLogoutURIs
                )
            ],
            user: user,
            accessTokenLifetime: 180,
            idTokenLifetime: 120
        )
        configuration.issuesRefreshTokens = false
        configuration.paths.jwks = "/.well-known/jwks.json"
        let issuer = configuration.issuer.absoluteString
        let base = issuer.trimmingSuffix("/")
        let trustmark = base + "/trustmark"
        let algorithms: [String] = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]
        configuration.quirks.discoveryRemovals = ["revocation_endpoint", "introspection_endpoint", "authorization_response_iss_parameter_supported"]
        configuration.quirks.discoveryExtras = [
            "scopes_supported": ["openid", "email", "phone"],
            "token_endpoint_auth_methods_supported": ["private_key_jwt", "client_secret_post"],
            "token_endpoint_auth_signing_alg_values_supported": .array(algorithms.map(JSONValue.string)),
            "ui_locales_supported": ["en", "cy"],
            "service_documentation": "https://docs.sign-in.service.gov.uk/",
            "op_policy_uri": "https://signin.account.gov.uk/privacy-notice",
            "op_tos_uri": "https://signin.account.gov.uk/terms-and-conditions",
            "request_parameter_supported": true,
            "request_uri_parameter_supported": false,
            "trustmarks": .string(trustmark),
            "subject_types_supported": ["public", "pairwise"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "claim_types_supported": ["normal"],
            "claims_supported": .array(
                ["sub", "email", "email_verified", "phone_number", "phone_number_verified"].map(JSONValue.string)
                    + GOVUKServiceUserKeys.identityClaims.map(JSONValue.string)
            )
        ]
        configuration.displayName = "GOV.UK One Login"
        configuration.paths.deviceAuthorization = nil  // neither GOV.UK One Login nor its simulator has a device flow
        configuration.quirks.discoveryHeaders = ["Cache-Control": "max-age=86400"]
        let signer = GOVUKServiceKeys.identitySigner(for: configuration.issuer)
        configuration.quirks.documents = [
            "/.well-known/did.json": (signer.didDocument, ["Cache-Control": "max-age=3600, private"]),
            "/trustmark": (["idp": .string(issuer), "trustmark_provider": .string(issuer), "C": ["Cl", "Cl.Cm"], "P": ["P0", "P1", "P2", "P3"]], [:])
        ]
        configuration.quirks.idTokenIncludesUserClaims = false
        configuration.quirks.defaultLogoutURL = URL(string: "https://gov.uk")!
        configuration.quirks.acceptedClientAuthenticationMethods = [.privateKeyJWT, .clientSecretPost]
        // RS256–RS512 and PS256–PS512, as the simulator's validate-private-key-jwt.ts accepts.
        configuration.quirks.acceptedAssertionAlgorithms = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
        configuration.quirks.acceptsIssuerAsAssertionAudience = true
        configuration.quirks.clientAuthenticationError = GOVUKSimulatorRules.tokenError
        configuration.quirks.checkTokenFormBeforeClientAuthentication = GOVUKSimulatorRules.tokenFormError
        // User info refuses a missing or bad token with 401 and an empty body (the simulator's user-info-controller.ts
        // and user-info-request-error.ts).
        configuration.quirks.unauthorizedAnswer = { presented in
            (Data(), presented ? #"Bearer error="invalid_token", error_description="Invalid access token""# : "Bearer")
        }
        configuration.quirks.rejectAuthorizationWithoutState = { query in GOVUKSimulatorRules.rejectAuthorizationWithoutState(query) }
        configuration.quirks.rejectAuthorization = { query, _ in GOVUKSimulatorRules.rejectAuthorization(query) }
        // A request object must be addressed to the authorization endpoint; any other `aud` is answered
        // access_denied with the object's state (the simulator's validate-auth-request-object.ts; GOV.UK's
        // "Authenticate your user": "You must set this value to …/authorize").
        configuration.quirks.requestObjectAudience = .authorizationEndpoint
        configuration.quirks.requestObjectAudienceError = ("access_denied", "Access denied by resource owner or authorization server")
        configuration.quirks.idTokenClaims = { query in
            ["vot": .string(GOVUKSimulatorRules.vectors(query["vtr"])?.first?.credentialTrust ?? "Cl.Cm"), "vtm": .string(trustmark)]
        }
        configuration.quirks.userInfo = { subject, claims, authorization in
            GOVUKSimulatorRules.userInfo(subject: subject, claims: claims, authorization: authorization, signer: signer, trustmark: trustmark, now: clock.now())
        }
        // GOV.UK sends no RFC 9207 `iss` in the authorization response, no `typ` in ID tokens, no `scope` in token responses.
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        configuration.initialBehavior.idTokenHeaderRemovals = ["typ"]
        configuration.initialBehavior.tokenResponseRemovals = ["scope"]
        return TestIdentityProvider(configuration: configuration, clock: clock)
    }
}

/// Where the emulated GOV.UK user's identity data lives among `TestIdentityProvider.User.claims`.
public enum GOVUKServiceUserKeys {
    /// The verifiable credential (`vc`) the core identity JWT carries; absent for a user without a proved identity.
    public static let credential = "govuk:vc"
    /// The level of confidence achieved (`vot` of the core identity JWT), default `P2`.
    public static let levelOfConfidence = "govuk:vot"
    /// The core identity JWT claim.
    public static let coreIdentityJWT = "https://vocab.account.gov.uk/v1/coreIdentityJWT"
    /// The address claim.
    public static let address = "https://vocab.account.gov.uk/v1/address"
    /// The passport claim.
    public static let passport = "https://vocab.account.gov.uk/v1/passport"
    /// The driving permit claim.
    public static let drivingPermit = "https://vocab.account.gov.uk/v1/drivingPermit"
    /// The return code claim.
    public static let returnCode = "https://vocab.account.gov.uk/v1/returnCode"
    /// Every identity claim GOV.UK publishes, as in the simulator's `claims_supported`.
    public static let identityClaims = [passport, drivingPermit, coreIdentityJWT, address, returnCode]
}

/// The rules of GOV.UK's simulator (`src/validators`, `src/components`), written from its source.
enum GOVUKSimulatorRules {
    struct Vector {
        let credentialTrust: String
        let levelOfConfidence: String?
        var isIdentity: Bool { levelOfConfidence != nil && levelOfConfidence != "P0" }
    }

    /// The client's permitted levels of confidence (the simulator's default `CLIENT_LOCS`).
    static let clientLevels: [String: Set<String>] = [
        TestIdentityProvider.govUKServiceClientID: ["P0", "P2"],
        TestIdentityProvider.govUKServiceSecretClientID: ["P0"]
    ]

    /// `vtr` parsed like the simulator's `vtrValidator`: `nil` when invalid; the default `Cl.Cm` when absent or empty.
    static func vectors(_ vtr: String?) -> [Vector]? {
        guard let vtr, !vtr.isEmpty else { return [Vector(credentialTrust: "Cl.Cm", levelOfConfidence: nil)] }
        guard let texts = try? JSONDecoder().decode([String].self, from: Data(vtr.utf8)) else { return nil }
        if texts.isEmpty { return [Vector(credentialTrust: "Cl.Cm", levelOfConfidence: nil)] }
        var vectors: [Vector] = []
        for text in texts {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let credential = parts.filter { $0.hasPrefix("C") }.sorted().joined(separator: ".")
            let levels = parts.filter { $0.hasPrefix("P") }
            guard levels.allSatisfy(["P0", "P1", "P2", "P3"].contains), levels.count <= 1 else { return nil }
            guard ["Cl", "Cl.Cm"].contains(credential) else { return nil }
            let vector = Vector(credentialTrust: credential, levelOfConfidence: levels.first)
            if ["P1", "P2", "P3"].contains(vector.levelOfConfidence ?? ""), credential != "Cl.Cm" { return nil }
            vectors.append(vector)
        }
        return vectors
    }

    /// The simulator's authorization checks after the client and redirect URI (`validateAuthRequestQueryParams`).
    /// What the simulator refuses before it reads `state`, so its redirect carries none: a request it cannot parse
    /// (parse-auth-request.ts: a `response_type` other than `code`, `token` or `id_token`; no `scope`, or none with
    /// `openid`; an unknown `prompt`; `claims` that are not JSON) with "Invalid Request"
    /// (authorise-get-controller.ts), then a missing `state` (validate-auth-request-query-params.ts).
    static func rejectAuthorizationWithoutState(_ query: [String: String]) -> (error: String, description: String)? {
        let invalid = ("invalid_request", "Invalid Request")
        guard ["code", "token", "id_token"].contains(query["response_type"] ?? "") else { return invalid }
        guard (query["scope"] ?? "").split(separator: " ").contains("openid") else { return invalid }
        if let prompt = query["prompt"], !prompt.split(separator: " ").allSatisfy({ ["none", "login", "consent", "select_account"].contains(String($0)) }) {
            return invalid
        }
        if let claims = query["claims"], (try? JSONValue.parseObject(Data(claims.utf8))) == nil { return invalid }
        guard query["state"] != nil else { return ("invalid_request", "Request is missing state parameter") }
        return nil
    }

    /// What the simulator refuses after it read `state` (echoed in the redirect). An unsupported `ui_locales` is only
    /// logged there, never refused.
    static func rejectAuthorization(_ query: [String: String]) -> (error: String, description: String)? {
        if query["request_uri"] != nil { return ("request_uri_not_supported", "Request URI parameter not supported") }
        guard query["response_type"] == "code" else { return ("unsupported_response_type", "Unsupported response type") }
        let scopes = (query["scope"] ?? "").split(separator: " ").map(String.init)
        guard scopes.allSatisfy(["openid", "email", "phone"].contains) else {
            return ("invalid_scope", "Invalid, unknown or malformed scope")
        }
        guard let claims = requestedClaims(query["claims"]), claims.allSatisfy(GOVUKServiceUserKeys.identityClaims.contains) else {
            return ("invalid_request", "Request contains invalid claims")
        }
        guard query["nonce"] != nil else { return ("invalid_request", "Request is missing nonce parameter") }
        guard let vectors = vectors(query["vtr"]) else { return ("invalid_request", "Request vtr not valid") }
        let identity = vectors.filter(\.isIdentity)
        let permitted = clientLevels[query["client_id"] ?? ""] ?? []
        if !identity.isEmpty {
            guard identity.count == vectors.count, identity.allSatisfy({ permitted.contains($0.levelOfConfidence ?? "") }) else {
                return ("invalid_request", "Request vtr not valid")
            }
        }
        if query["prompt"] == "select_account" { return ("unmet_authentication_requirements", "Unmet authentication requirements") }
        return nil
    }

    /// The user info claim names in a `claims` request parameter (`{"userinfo": {...}}`); empty without one; `nil`
    /// when it is not that shape.
    static func requestedClaims(_ parameter: String?) -> [String]? {
        guard let parameter else { return [] }
        guard let object = try? JSONValue.parseObject(Data(parameter.utf8)), let userinfo = object["userinfo"]?.objectValue else { return nil }
        return Array(userinfo.keys)
    }

    /// What the simulator checks before it authenticates the client, in its order (parse-token-request.ts):
    /// `grant_type` present and `authorization_code` (it has no refresh), then `redirect_uri`, then `code`.
    @Sendable static func tokenFormError(_ form: [String: String]) -> (status: Int, error: String, description: String)? {
        guard let grantType = form["grant_type"], !grantType.isEmpty else {
            return (400, "invalid_request", "Request is missing grant_type parameter")
        }
        guard grantType == "authorization_code" else { return (400, "unsupported_grant_type", "Unsupported grant type") }
        guard let redirect = form["redirect_uri"], !redirect.isEmpty else {
            return (400, "invalid_request", "Request is missing redirect_uri parameter")
        }
        guard let code = form["code"], !code.isEmpty else { return (400, "invalid_request", "Request is missing code parameter") }
        return nil
    }

    /// The simulator's token endpoint answers to a failed client authentication (validate-client-secret-post.ts,
    /// validate-private-key-jwt.ts): an unknown client is 400 by `client_secret_post` and 401 by assertion.
    @Sendable static func tokenError(_ failure: ClientAuthenticationFailure) -> (status: Int, error: String, description: String?) {
        switch failure {
        case .noAuthentication, .unsupportedMethod, .keyClientWithoutAssertion:
            (400, "invalid_request", "Invalid token authentication method used")
        case .wrongAssertionType, .malformedAssertion, .unsupportedAssertionAlgorithm:
            (400, "invalid_request", "Invalid private_key_jwt")
        case .unknownClient:
            (400, "invalid_client", "Client authentication failed")
        case .unknownAssertionClient:
            (401, "invalid_client", "Client authentication failed")
        case .wrongSecret:
            (400, "invalid_client", "Invalid client secret")
        case .expiredAssertion:
            (400, "invalid_grant", "private_key_jwt has expired")
        case .wrongAudience, .issuerIsNotSubject, .badSignature:
            (400, "invalid_client", "Invalid signature in private_key_jwt")
        case .replayedAssertion:
            // Stricter than the simulator (which does not track jti): GOV.UK requires each assertion to be unique.
            (400, "invalid_client", "private_key_jwt jti has already been used")
        }
    }

    /// User info as the simulator builds it: `sub`; e-mail and phone by scope; identity claims when a `P` level and
    /// those claims were requested and the user has them; the core identity JWT signed with the DID-published key.
    static func userInfo(
        subject: String,
        claims: [String: JSONValue],
        authorization: [String: String],
        signer: GOVUKIdentitySigner,
        trustmark: String,
        now: Date
    ) -> [String: JSONValue] {
        var info: [String: JSONValue] = ["sub": .string(subject)]
        let scopes = Set((authorization["scope"] ?? "").split(separator: " ").map(String.init))
        if scopes.contains("email") {
            info["email"] = claims["email"]
            info["email_verified"] = claims["email_verified"]
        }
        if scopes.contains("phone") {
            info["phone_number"] = claims["phone_number"]
            info["phone_number_verified"] = claims["phone_number_verified"]
        }
        guard vectors(authorization["vtr"])?.contains(where: \.isIdentity) == true else { return info }
        let requested = requestedClaims(authorization["claims"]) ?? []
        for claim in [GOVUKServiceUserKeys.address, GOVUKServiceUserKeys.passport, GOVUKServiceUserKeys.drivingPermit, GOVUKServiceUserKeys.returnCode]
        where requested.contains(claim) {
            info[claim] = claims[claim]
        }
        if requested.contains(GOVUKServiceUserKeys.coreIdentityJWT), let credential = claims[GOVUKServiceUserKeys.credential]?.objectValue {
            let jwtClaims = signer.claims(
                audience: authorization["client_id"] ?? "",
                subject: subject,
                vot: claims[GOVUKServiceUserKeys.levelOfConfidence]?.stringValue ?? "P2",
                credential: credential,
                trustmark: trustmark,
                now: now
            )
            info[GOVUKServiceUserKeys.coreIdentityJWT] = .string(signer.jwt(jwtClaims))
        }
        return info
    }
}
