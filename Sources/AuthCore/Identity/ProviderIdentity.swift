public import Foundation
import HTTPTypes

/// Who signed in, as a provider says it outside (or beyond) an ID token: GitHub's user API, the name Apple posts only
/// on a user's first sign-in. ``AuthProvider/resolveIdentity(_:)`` returns it; the engine stores it with the
/// credential.
public struct ProviderIdentity: Sendable, Hashable {
    /// The user's stable id at the provider. It becomes the credential's subject when no ID token gave one; when an
    /// ID token did, the two must agree (`subject_mismatch` otherwise).
    public var subject: String
    /// What to keep about the user with the credential (`name`, `email`, `login`, …): kept across refreshes and shown
    /// by ``Credential/profile``. Never secrets.
    public var profile: [String: String]

    /// Creates an identity.
    public init(subject: String, profile: [String: String] = [:]) {
        self.subject = subject
        self.profile = profile
    }
}

/// What ``AuthProvider/resolveIdentity(_:)`` works from: a sign-in's checked tokens and ID token claims, the
/// authorization response's other parameters, and the client's HTTP client to ask the provider's API.
public struct IdentityContext: Sendable {
    /// How the tokens were obtained.
    public enum Grant: String, Sendable, Hashable {
        /// A browser or app sign-in (the authorization code flow).
        case authorizationCode = "authorization_code"
        /// A device sign-in (RFC 8628).
        case deviceCode = "device_code"
        /// Tokens imported with ``AuthClient/importTokens(_:)``.
        case imported
        /// A sign-in without a browser by token exchange (RFC 8693): OpenID Connect Native SSO's second app of a family,
        /// which presents the family's ID token and device secret (AuthTokenExchange's `signInWithNativeSSO`).
        case tokenExchange = "token_exchange"
    }

    /// How the tokens were obtained.
    public let grant: Grant
    /// The token response, already checked.
    public let tokens: TokenResponse
    /// The validated ID token claims, `nil` without an ID token.
    public let idTokenClaims: IDTokenClaims?
    /// The authorization response's parameters other than `code`, `state` and `iss` (Apple's `user`); empty for
    /// device sign-ins and imported tokens.
    public let authorizationResponse: [String: String]
    /// The provider's endpoints.
    public let metadata: ProviderMetadata
    let http: ProviderHTTPClient

    init(
        grant: Grant, tokens: TokenResponse, idTokenClaims: IDTokenClaims?, authorizationResponse: [String: String],
        metadata: ProviderMetadata, http: ProviderHTTPClient
    ) {
        self.grant = grant
        self.tokens = tokens
        self.idTokenClaims = idTokenClaims
        self.authorizationResponse = authorizationResponse.filter { !["code", "state", "iss"].contains($0.key) }
        self.metadata = metadata
        self.http = http
    }

    /// GETs `url` with the new access token as a Bearer token, through the client's transport with its limits,
    /// logging (method, host and path only) and tracing; returns the body of a 2xx answer.
    ///
    /// - Parameters:
    ///   - url: the API resource.
    ///   - endpoint: the endpoint's kind for logs and traces (`user_api`), never its URL.
    ///   - accept: the `Accept` header.
    ///   - headers: further request headers (an API version, a `User-Agent` the API requires).
    /// - Throws: `http_error` with the status for any other answer; transport errors as the engine reports them.
    public func get(_ url: URL, endpoint: String, accept: String = "application/json", headers: [String: String] = [:]) async throws -> Data {
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields[.accept] = accept
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else {
                throw AuthError(.invalidConfiguration, "'\(name)' is not a valid HTTP header name.", providerID: http.providerID)
            }
            request.headerFields[field] = value
        }
        request.headerFields[.authorization] = "\(tokens.tokenType) \(tokens.accessToken.reveal())"
        return try await http.sendExpectingSuccess(request, endpoint: endpoint)
    }
}
