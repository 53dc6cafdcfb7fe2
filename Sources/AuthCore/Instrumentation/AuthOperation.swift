/// One operation of the engine that an ``AuthInstrumentation`` may trace and time.
///
/// Carries only what is safe to export to a tracing or metrics backend: the kind of operation, the provider, and
/// for HTTP requests the endpoint's *kind* (`token_endpoint`, `jwks_uri`, …) and the method — never a URL (paths
/// can hold user identifiers), token, code, secret or subject.
package struct AuthOperation: Sendable, Hashable {
    /// What the engine is doing.
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable name (`sign_in`, `refresh`, …), used in span names and metric dimensions.
        package let rawValue: String
        /// Creates a kind.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        package var description: String { rawValue }

        /// Completing a sign-in: redirect checks, code exchange, ID token validation, storing.
        package static let signIn = Kind(rawValue: "sign_in")
        /// Redeeming an authorization code at the token endpoint.
        package static let codeExchange = Kind(rawValue: "code_exchange")
        /// Redeeming a refresh token (one per account at a time; joiners are counted, not traced twice).
        package static let refresh = Kind(rawValue: "refresh")
        /// Revoking a token (RFC 7009).
        package static let revocation = Kind(rawValue: "revocation")
        /// Introspecting a token (RFC 7662).
        package static let introspection = Kind(rawValue: "introspection")
        /// Handling a back-channel logout token.
        package static let backChannelLogout = Kind(rawValue: "back_channel_logout")
        /// One server-to-server HTTP request.
        package static let httpRequest = Kind(rawValue: "http_request")
    }

    /// The operation.
    package let kind: Kind
    /// The provider it runs for.
    package let providerID: ProviderID
    /// For HTTP requests, the endpoint's kind (`token_endpoint`, `jwks_uri`, `revocation_endpoint`, …).
    package let endpoint: String?
    /// For HTTP requests, the method.
    package let method: String?

    /// Creates an operation.
    package init(kind: Kind, providerID: ProviderID, endpoint: String? = nil, method: String? = nil) {
        self.kind = kind
        self.providerID = providerID
        self.endpoint = endpoint
        self.method = method
    }
}

/// What the engine learned while an operation ran, for the instrumentation to read when it ends.
package final class AuthOperationOutcome: Sendable {
    private let status = LockedValue<Int?>(nil)

    /// Creates an empty outcome.
    package init() {}

    /// The HTTP status of the response, for HTTP requests that got one.
    package var httpStatus: Int? { status.withLock { $0 } }

    /// Records the HTTP status.
    package func record(httpStatus: Int) {
        status.withLock { $0 = httpStatus }
    }
}

/// Something countable that is not an operation of its own.
package struct AuthInstrumentationEvent: Sendable, Hashable {
    /// The event's kind.
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable name.
        package let rawValue: String
        /// Creates a kind.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        package var description: String { rawValue }

        /// A refresh request joined one already in flight for the same account instead of sending its own.
        package static let refreshCoalesced = Kind(rawValue: "refresh_coalesced")
        /// A key set (JWKS) was fetched: the first time, after its cache age, or for an unknown key id.
        package static let keySetFetched = Kind(rawValue: "jwks_fetched")
    }

    /// The event.
    package let kind: Kind
    /// The provider it happened for.
    package let providerID: ProviderID

    /// Creates an event.
    package init(kind: Kind, providerID: ProviderID) {
        self.kind = kind
        self.providerID = providerID
    }
}
