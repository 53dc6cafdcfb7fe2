public import AuthCore
public import Foundation

/// A government web service's registration with GOV.UK One Login (a confidential client). Every field is a `let`,
/// checked once by the initializer.
///
/// Unlike the app SDK's ``GOVUKAppConfiguration``, a service uses discovery, authenticates at the token endpoint
/// with its private key (`private_key_jwt`, RS256–PS512) or a secret (`client_secret_post`), may ask for identity
/// (`Cl.Cm.P2`) and the identity claims that come with it, and never gets a refresh token: the session lasts as
/// long as the access token (three minutes at GOV.UK), after which the user signs in again.
///
/// ```swift
/// let configuration = try GOVUKServiceConfiguration(
///     environment: .integration,
///     clientID: "my-service",
///     clientAuthentication: .privateKey(try ClientSigningKey(pem: pem, algorithm: .rs256)),
///     redirectURI: URL(string: "https://my-service.gov.uk/auth/callback")!,
///     vectorsOfTrust: [VectorOfTrust(.medium, .p2)],
///     identityClaims: [.coreIdentity, .address, .returnCode]
/// )
/// ```
public struct GOVUKServiceConfiguration: Sendable {
    /// How the service authenticates at the token endpoint.
    public enum ClientAuthentication: Sendable {
        /// `private_key_jwt`: an assertion signed with the service's private key (the public key is registered
        /// with GOV.UK One Login). Required for identity.
        case privateKey(ClientSigningKey)
        /// `client_secret_post`: the secret in the form body (authentication-only services).
        case clientSecret(Secret)
    }

    /// A claim about the user's identity, requested through the `claims` parameter and returned by user info.
    public enum IdentityClaim: String, Sendable, Hashable, CaseIterable {
        /// The core identity JWT: names and birth dates, signed with GOV.UK's identity key.
        case coreIdentity = "https://vocab.account.gov.uk/v1/coreIdentityJWT"
        /// Postal addresses.
        case address = "https://vocab.account.gov.uk/v1/address"
        /// Passport details.
        case passport = "https://vocab.account.gov.uk/v1/passport"
        /// Driving permit details.
        case drivingPermit = "https://vocab.account.gov.uk/v1/drivingPermit"
        /// Why identity could not be proved (return codes).
        case returnCode = "https://vocab.account.gov.uk/v1/returnCode"

        /// The claim for a URI or its last path component (`coreIdentityJWT`, `address`, …).
        public init?(name: String) {
            guard let claim = Self(rawValue: name) ?? Self.allCases.first(where: { $0.shortName == name }) else { return nil }
            self = claim
        }

        /// The last path component of the claim's URI (`coreIdentityJWT`, `address`, …).
        public var shortName: String { String(rawValue.split(separator: "/").last ?? "") }
    }

    /// The scopes GOV.UK One Login accepts.
    public static let supportedScopes: Set<String> = ["openid", "email", "phone"]
    /// The signature algorithms GOV.UK One Login accepts for client assertions.
    public static let supportedAssertionAlgorithms: [ClientSigningKey.Algorithm] = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]

    /// The OpenID issuer, with GOV.UK's trailing slash (`https://oidc.account.gov.uk/`); discovery is read from it.
    public let issuer: URL
    /// The client id GOV.UK One Login gave the service.
    public let clientID: String
    /// How the service authenticates at the token endpoint.
    public let clientAuthentication: ClientAuthentication
    /// The registered redirect URI (matched exactly).
    public let redirectURI: URL
    /// The registered post-logout redirect URI, for `Session.endSessionURL(postLogoutRedirectURI:state:includingIDTokenHint:)`.
    public let postLogoutRedirectURI: URL?
    /// The scopes: `openid` and any of `email`, `phone`.
    public let scopes: [String]
    /// The vectors of trust to ask for (alternatives), sent as `vtr`.
    public let vectorsOfTrust: [VectorOfTrust]
    /// The page language, sent as `ui_locales` when set.
    public let locale: GOVUKAppConfiguration.UILocale?
    /// The identity claims to ask for (only with a vector of `P1` or above).
    public let identityClaims: Set<IdentityClaim>
    /// The `iss` of core identity JWTs (`https://identity.account.gov.uk/` in production).
    public let identityIssuer: String
    /// Where GOV.UK publishes the identity signing key: the DID document (`…/.well-known/did.json`).
    public let didDocumentURL: URL
    /// Whether authorization requests travel as a signed request object (`request=`, signed with the private key).
    public let usesSignedRequestObject: Bool

    /// Creates a configuration for one of GOV.UK One Login's environments; see the properties for the meaning of
    /// each parameter.
    ///
    /// - Throws: `invalid_configuration` naming what to fix (see ``validate()``).
    public init(
        environment: GOVUKAppConfiguration.Environment,
        clientID: String,
        clientAuthentication: ClientAuthentication,
        redirectURI: URL,
        postLogoutRedirectURI: URL? = nil,
        scopes: [String] = ["openid", "email", "phone"],
        vectorsOfTrust: [VectorOfTrust] = [VectorOfTrust(.medium)],
        locale: GOVUKAppConfiguration.UILocale? = nil,
        identityClaims: Set<IdentityClaim> = [],
        usesSignedRequestObject: Bool = false
    ) throws {
        try self.init(
            issuer: environment.issuer,
            clientID: clientID,
            clientAuthentication: clientAuthentication,
            redirectURI: redirectURI,
            postLogoutRedirectURI: postLogoutRedirectURI,
            scopes: scopes,
            vectorsOfTrust: vectorsOfTrust,
            locale: locale,
            identityClaims: identityClaims,
            identityIssuer: environment.identityIssuer.absoluteString,
            didDocumentURL: environment.didDocumentURL,
            usesSignedRequestObject: usesSignedRequestObject
        )
    }

    /// Creates a configuration for any issuer (a simulator or an emulator); see the properties for the meaning of
    /// each parameter.
    ///
    /// - Throws: `invalid_configuration` naming what to fix (see ``validate()``).
    public init(
        issuer: URL,
        clientID: String,
        clientAuthentication: ClientAuthentication,
        redirectURI: URL,
        postLogoutRedirectURI: URL? = nil,
        scopes: [String] = ["openid", "email", "phone"],
        vectorsOfTrust: [VectorOfTrust] = [VectorOfTrust(.medium)],
        locale: GOVUKAppConfiguration.UILocale? = nil,
        identityClaims: Set<IdentityClaim> = [],
        identityIssuer: String,
        didDocumentURL: URL,
        usesSignedRequestObject: Bool = false
    ) throws {
        self.issuer = issuer
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.redirectURI = redirectURI
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.scopes = scopes
        self.vectorsOfTrust = vectorsOfTrust
        self.locale = locale
        self.identityClaims = identityClaims
        self.identityIssuer = identityIssuer
        self.didDocumentURL = didDocumentURL
        self.usesSignedRequestObject = usesSignedRequestObject
        try validate()
    }

    /// Whether any requested vector asks for identity (`P1` or above).
    public var requestsIdentity: Bool { vectorsOfTrust.contains(where: \.requestsIdentity) }

    /// The DID of GOV.UK's identity key controller, from the DID document's host (`did:web:identity.account.gov.uk`;
    /// a port is written `%3A` as did:web requires).
    public var didController: String {
        var host = didDocumentURL.host ?? ""
        if let port = didDocumentURL.port { host += "%3A\(port)" }
        return "did:web:" + host
    }

    /// Checks what GOV.UK One Login would refuse, so the mistake shows at start-up rather than at the first sign-in.
    ///
    /// - Throws: `invalid_configuration` for an empty client id; a redirect that is neither `https` nor loopback
    ///   `http`; scopes without `openid` or with one GOV.UK does not know; no vector of trust; identity vectors mixed
    ///   with non-identity ones; identity with a client secret (GOV.UK requires `private_key_jwt` for identity);
    ///   identity claims without an identity vector; a private key of an algorithm GOV.UK does not accept (ES256);
    ///   a signed request object without a private key.
    public func validate() throws {
        func refuse(_ message: String) -> AuthError {
            AuthError(.invalidConfiguration, message, providerID: GOVUKProvider.id)
        }
        guard !clientID.isEmpty else { throw refuse("The GOV.UK One Login 'client_id' is empty.") }
        guard redirectURI.scheme?.lowercased() == "https" || redirectURI.isLoopback else {
            throw refuse("The GOV.UK One Login 'redirect_uri' must be https (or http on 127.0.0.1 for development); got \(redirectURI.absoluteString).")
        }
        guard scopes.contains("openid") else { throw refuse("The GOV.UK One Login scopes must include openid.") }
        let unknown = scopes.filter { !Self.supportedScopes.contains($0) }
        guard unknown.isEmpty else {
            throw refuse(
                "GOV.UK One Login accepts the scopes openid, email and phone only (it issues no refresh token, so no offline_access); remove \(unknown.joined(separator: ", ")).")
        }
        guard !vectorsOfTrust.isEmpty else { throw refuse("Give at least one vector of trust, such as Cl.Cm or Cl.Cm.P2.") }
        if requestsIdentity {
            guard vectorsOfTrust.allSatisfy(\.requestsIdentity) else {
                throw refuse(
                    "The vectors of trust \(VectorOfTrust.parameter(for: vectorsOfTrust)) mix identity (P1 and above) with non-identity vectors; GOV.UK One Login refuses that.")
            }
            guard case .privateKey = clientAuthentication else {
                throw refuse("Identity (\(VectorOfTrust.parameter(for: vectorsOfTrust))) needs private_key_jwt: configure the service's private key instead of a client secret.")
            }
        } else if !identityClaims.isEmpty {
            let names = identityClaims.map(\.shortName).sorted().joined(separator: ", ")
            throw refuse("The identity claims \(names) come only with identity: ask for a vector of trust with P1 or above (for example Cl.Cm.P2).")
        }
        if case .privateKey(let key) = clientAuthentication, !Self.supportedAssertionAlgorithms.contains(key.algorithm) {
            throw refuse("GOV.UK One Login accepts client assertions signed with RS256, RS384, RS512, PS256, PS384 or PS512, not \(key.algorithm.rawValue); use an RSA key.")
        }
        if usesSignedRequestObject, case .clientSecret = clientAuthentication {
            throw refuse("A signed request object needs the service's private key; configure private_key_jwt.")
        }
    }
}

extension GOVUKAppConfiguration.Environment {
    /// The `iss` of the environment's core identity JWTs.
    public var identityIssuer: URL {
        switch self {
        case .production: URL(string: "https://identity.account.gov.uk/")!
        case .integration: URL(string: "https://identity.integration.account.gov.uk/")!
        }
    }

    /// The environment's DID document, which publishes the key that signs core identity JWTs.
    public var didDocumentURL: URL {
        identityIssuer.appendingPathComponent(".well-known/did.json")
    }
}
