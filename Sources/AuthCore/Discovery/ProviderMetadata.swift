public import Foundation

/// A provider's endpoints and capabilities (OpenID Connect Discovery / RFC 8414 metadata).
public struct ProviderMetadata: Sendable, Hashable {
    /// The issuer identifier, exactly as published (compared as a string).
    public var issuer: String
    /// The authorization endpoint.
    public var authorizationEndpoint: URL
    /// The token endpoint.
    public var tokenEndpoint: URL
    /// The JWKS URL, required to validate ID tokens.
    public var jwksURI: URL?
    /// The user info endpoint.
    public var userinfoEndpoint: URL?
    /// The RFC 7009 revocation endpoint.
    public var revocationEndpoint: URL?
    /// The RFC 7662 introspection endpoint.
    public var introspectionEndpoint: URL?
    /// The RP-initiated logout endpoint.
    public var endSessionEndpoint: URL?
    /// The RFC 9126 pushed authorization request endpoint.
    public var pushedAuthorizationRequestEndpoint: URL?
    /// The RFC 8628 device authorization endpoint (`device_authorization_endpoint`), if any.
    public var deviceAuthorizationEndpoint: URL?
    /// Algorithms the provider says it signs ID tokens with (informational: never widens the pinned list).
    public var idTokenSigningAlgorithms: [String]
    /// Whether authorization responses carry the RFC 9207 `iss` parameter; when true, it is required.
    public var authorizationResponseIssParameterSupported: Bool
    /// Every member of the document, for provider-specific keys.
    public var document: [String: JSONValue]

    /// Creates metadata in code (fixed-endpoint providers, tests).
    public init(
        issuer: String,
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        jwksURI: URL? = nil,
        userinfoEndpoint: URL? = nil,
        revocationEndpoint: URL? = nil,
        introspectionEndpoint: URL? = nil,
        endSessionEndpoint: URL? = nil,
        pushedAuthorizationRequestEndpoint: URL? = nil,
        deviceAuthorizationEndpoint: URL? = nil,
        idTokenSigningAlgorithms: [String] = [],
        authorizationResponseIssParameterSupported: Bool = false,
        document: [String: JSONValue] = [:]
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
        self.userinfoEndpoint = userinfoEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.idTokenSigningAlgorithms = idTokenSigningAlgorithms
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.document = document
    }

    /// Parses a discovery document.
    ///
    /// - Throws: `discovery_failed` naming the missing or malformed member.
    public init(document: [String: JSONValue]) throws {
        func url(_ key: String, required: Bool) throws -> URL? {
            guard let value = document[key], value != .null else {
                if required { throw AuthError(.discoveryFailed, "The discovery document has no '\(key)'.", endpoint: key) }
                return nil
            }
            // Only "is it a URL" here; whether the engine may use it (https, loopback-IP http) is decided once, by
            // the endpoint security check, so a `file:` or `smb:` endpoint is reported as `insecure_endpoint`.
            guard let text = value.stringValue, let url = URL(string: text), url.scheme != nil else {
                throw AuthError(.discoveryFailed, "The discovery document's '\(key)' is not an absolute URL.", endpoint: key)
            }
            return url
        }
        guard let issuer = document["issuer"]?.stringValue, !issuer.isEmpty else {
            throw AuthError(.discoveryFailed, "The discovery document has no 'issuer'.")
        }
        self.init(
            issuer: issuer,
            authorizationEndpoint: try url("authorization_endpoint", required: true)!,
            tokenEndpoint: try url("token_endpoint", required: true)!,
            jwksURI: try url("jwks_uri", required: false),
            userinfoEndpoint: try url("userinfo_endpoint", required: false),
            revocationEndpoint: try url("revocation_endpoint", required: false),
            introspectionEndpoint: try url("introspection_endpoint", required: false),
            endSessionEndpoint: try url("end_session_endpoint", required: false),
            pushedAuthorizationRequestEndpoint: try url("pushed_authorization_request_endpoint", required: false),
            deviceAuthorizationEndpoint: try url("device_authorization_endpoint", required: false),
            idTokenSigningAlgorithms: document["id_token_signing_alg_values_supported"]?.arrayValue?
                .compactMap(\.stringValue) ?? [],
            authorizationResponseIssParameterSupported:
                document["authorization_response_iss_parameter_supported"]?.boolValue ?? false,
            document: document
        )
    }

    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the proof algorithms the provider accepts; `nil` when it
    /// does not offer DPoP.
    package var dpopSigningAlgorithms: [String]? {
        document["dpop_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue)
    }

    /// Every endpoint the metadata names, for security checks.
    package var allEndpoints: [URL] {
        [authorizationEndpoint, tokenEndpoint]
            + [
                jwksURI, userinfoEndpoint, revocationEndpoint, introspectionEndpoint, endSessionEndpoint,
                pushedAuthorizationRequestEndpoint, deviceAuthorizationEndpoint
            ].compactMap { $0 }
    }
}
