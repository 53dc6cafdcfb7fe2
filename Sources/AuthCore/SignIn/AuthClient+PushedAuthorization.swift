package import Foundation

/// A request the provider accepted at its pushed authorization request endpoint (RFC 9126 §2.2).
package struct PushedAuthorizationRequest: Sendable, Hashable {
    /// The `request_uri` the authorization URL carries instead of the parameters.
    package let requestURI: String
    /// When the provider stops accepting `requestURI` (now + `expires_in`).
    package let expiresAt: Date
}

extension AuthClient {
    /// The longest `expires_in` accepted from a pushed authorization request endpoint: an hour. RFC 9126 §2.2 calls the
    /// lifetime short ("typically between 5 and 600 seconds"); a longer one is a broken or hostile answer.
    package static let maximumRequestURILifetime = 3600

    /// Whether this sign-in's request is pushed (RFC 9126): as the client's ``ClientRegistration/pushedAuthorization``
    /// says, always under FAPI 2.0, and always when the metadata says `require_pushed_authorization_requests`.
    ///
    /// - Throws: `invalid_configuration` naming the `par` setting when the provider requires pushed requests and the
    ///   client forbids them; `endpoint_unavailable` when they are to be pushed and the provider has no endpoint.
    func pushesAuthorization(_ metadata: ProviderMetadata) throws -> Bool {
        let required = metadata.document["require_pushed_authorization_requests"]?.boolValue == true
        let usage = provider.client.profile == .fapi2 ? .always : provider.client.pushedAuthorization
        let pushes: Bool
        switch usage {
        case .never:
            if required {
                throw AuthError(
                    .invalidConfiguration,
                    "The provider requires pushed authorization requests (require_pushed_authorization_requests: true), but this client forbids them (the setting par: false, pushedAuthorization: .never); remove that setting.",
                    providerID: provider.id, configurationKey: "par")
            }
            pushes = false
        case .whenAdvertised: pushes = required || metadata.pushedAuthorizationRequestEndpoint != nil
        case .always: pushes = true
        }
        if pushes, metadata.pushedAuthorizationRequestEndpoint == nil {
            throw AuthError(
                .endpointUnavailable,
                "Authorization requests are to be pushed (RFC 9126), but the provider's metadata names no pushed_authorization_request_endpoint.",
                providerID: provider.id, endpoint: "pushed_authorization_request_endpoint")
        }
        return pushes
    }

    /// Pushes `parameters` (an authorization request's, or a provider's own such as Uber's prefill) to the provider's
    /// pushed authorization request endpoint (RFC 9126 §2.1): a form POST authenticated as token requests are (the
    /// same `client_secret_basic`/`client_secret_post`/`private_key_jwt` mechanism, RFC 9126 §2), never in a URL
    /// query. A DPoP-bound sign-in's `dpop_jkt` travels among the parameters (RFC 9449 §10).
    ///
    /// - Returns: the `request_uri` and when it expires.
    /// - Throws: `pushed_authorization_failed` for an OAuth error or an HTTP error status (with ``AuthError/oauthError``);
    ///   `missing_request_uri` for an answer without one; `invalid_request_uri_lifetime` for an `expires_in` that is
    ///   missing, not a positive whole number of seconds, or over ``maximumRequestURILifetime``; the transport's
    ///   errors (`network_error`, `timed_out`, `server_error`, `rate_limited`) as they are.
    package func pushAuthorizationRequest(_ parameters: [(String, String)], metadata: ProviderMetadata) async throws -> PushedAuthorizationRequest {
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else {
            throw AuthError(
                .endpointUnavailable, "The provider's metadata names no pushed_authorization_request_endpoint.", providerID: provider.id,
                endpoint: "pushed_authorization_request_endpoint")
        }
        let members: [String: JSONValue]
        do {
            members = try await tokenEndpoint.post(endpoint, dpopKey: nil, endpoint: "pushed_authorization_request_endpoint") {
                var authentication: [(String, String)] = []
                var headers: [String: String] = [:]
                try tokenEndpoint.authenticateClient(parameters: &authentication, headers: &headers, metadata: metadata, destination: endpoint)
                // `client_id` once: from the authentication when it carries one (RFC 9126 §2.1).
                let named = authentication.contains { $0.0 == "client_id" }
                return (authentication + parameters.filter { !(named && $0.0 == "client_id") }, headers)
            }
        } catch let error as AuthError where [.tokenRequestFailed, .invalidGrant, .httpError, .unsupportedTokenType].contains(error.code) {
            throw AuthError(
                .pushedAuthorizationFailed,
                "The pushed authorization request endpoint refused the request\(error.oauthError.map { " (\($0))" } ?? error.httpStatus.map { " (HTTP \($0))" } ?? ""); the sign-in did not start.",
                providerID: provider.id, oauthError: error.oauthError, httpStatus: error.httpStatus,
                endpoint: "pushed_authorization_request_endpoint", underlying: error)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
        guard let requestURI = members["request_uri"]?.stringValue, !requestURI.isEmpty else {
            throw AuthError(
                .missingRequestURI, "The pushed authorization request endpoint answered without a 'request_uri' (RFC 9126 §2.2); the sign-in did not start.",
                providerID: provider.id, endpoint: "pushed_authorization_request_endpoint")
        }
        guard let seconds = members["expires_in"]?.numberValue, seconds == seconds.rounded(), seconds > 0,
            seconds <= Double(Self.maximumRequestURILifetime)
        else {
            let given = members["expires_in"].map { String(describing: $0) } ?? "none"
            throw AuthError(
                .invalidRequestURILifetime,
                "The pushed authorization request's expires_in (\(ProviderText.sanitized(given, limit: 40))) is not a positive number of seconds up to \(Self.maximumRequestURILifetime) (RFC 9126 §2.2); the sign-in did not start.",
                providerID: provider.id, endpoint: "pushed_authorization_request_endpoint")
        }
        log(.debug, "signin.pushed", "Authorization request pushed.", ["expires_in": String(Int(seconds))])
        return PushedAuthorizationRequest(requestURI: requestURI, expiresAt: clock.now().addingTimeInterval(seconds))
    }
}
