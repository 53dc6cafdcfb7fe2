public import AuthCore
import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension TestIdentityProvider {
    /// Endpoint paths, relative to the issuer. Emulators change them to match a provider's real layout.
    public struct Paths: Sendable {
        /// The discovery document (`nil`: the provider has no discovery).
        public var discovery: String? = "/.well-known/openid-configuration"
        /// The JWKS.
        public var jwks = "/jwks"
        /// The authorization endpoint.
        public var authorize = "/authorize"
        /// Further paths that also serve authorization requests (a provider's per-app endpoints).
        public var authorizeAliases: [String] = []
        /// The token endpoint.
        public var token = "/token"
        /// The user info endpoint.
        public var userinfo = "/userinfo"
        /// The RFC 7009 revocation endpoint.
        public var revoke = "/revoke"
        /// The RFC 7662 introspection endpoint.
        public var introspect = "/introspect"
        /// The end-session endpoint.
        public var endSession = "/logout"
        /// A protected API that accepts the issued access tokens.
        public var resource = "/api/resource"

        /// The default layout.
        public init() {}
    }

    /// A provider's peculiarities: what its server insists on, and what it adds.
    ///
    /// A strict emulator rejects requests that lack the provider's quirks, so a test that passes against it
    /// proves the client sends them.
    public struct Quirks: Sendable {
        /// Checks an authorization request's parameters (and the path it was sent to); a returned text rejects
        /// it with `invalid_request` and that description.
        public var validateAuthorization: (@Sendable (_ query: [String: String], _ path: String) -> String?)?
        /// Checks a token request (headers and form); a returned text rejects it with HTTP 400 `invalid_request`.
        public var validateTokenRequest: (@Sendable (URLRequest, [String: String]) -> String?)?
        /// Extra ID token claims, from the authorization request's parameters (for example `amr` for an
        /// requested `acr_values`).
        public var idTokenClaims: (@Sendable ([String: String]) -> [String: JSONValue])?
        /// Shapes the user info response from the user's claims.
        public var userInfo: (@Sendable (String, [String: JSONValue]) -> [String: JSONValue])?
        /// Members added to the discovery document (a provider's own endpoints).
        public var discoveryExtras: [String: JSONValue] = [:]
        /// Serves a provider-specific API on any other path: given the request and the subject of its valid
        /// bearer token (`nil` without one), returns a status and a JSON body, or `nil` for 404.
        public var api: (@Sendable (URLRequest, String?) -> (status: Int, body: JSONValue)?)?

        /// No quirks: plain OpenID Connect.
        public init() {}
    }
}
