/// One operation of the engine that an ``AuthInstrumentation`` may trace and time.
///
/// Carries only what is safe to export to a tracing or metrics backend: the kind of operation, the provider, and
/// for HTTP requests the endpoint's *kind* (`token_endpoint`, `jwks_uri`, …) and the method — never a URL (paths
/// can hold user identifiers), token, code, secret or subject.
public struct AuthOperation: Sendable, Hashable {
    /// What the engine is doing.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable name (`sign_in`, `refresh`, …), used in span names and metric dimensions.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// Completing a sign-in: redirect checks, code exchange, ID token validation, storing.
        public static let signIn = Kind(rawValue: "sign_in")
        /// Redeeming an authorization code at the token endpoint.
        public static let codeExchange = Kind(rawValue: "code_exchange")
        /// Redeeming a refresh token (one per account at a time; joiners are counted, not traced twice).
        public static let refresh = Kind(rawValue: "refresh")
        /// Revoking a token (RFC 7009).
        public static let revocation = Kind(rawValue: "revocation")
        /// Introspecting a token (RFC 7662).
        public static let introspection = Kind(rawValue: "introspection")
        /// Handling a back-channel logout token.
        public static let backChannelLogout = Kind(rawValue: "back_channel_logout")
        /// One server-to-server HTTP request.
        public static let httpRequest = Kind(rawValue: "http_request")
    }

    /// The operation.
    public let kind: Kind
    /// The provider it runs for.
    public let providerID: ProviderID
    /// For HTTP requests, the endpoint's kind (`token_endpoint`, `jwks_uri`, `revocation_endpoint`, …).
    public let endpoint: String?
    /// For HTTP requests, the method.
    public let method: String?

    /// Creates an operation.
    public init(kind: Kind, providerID: ProviderID, endpoint: String? = nil, method: String? = nil) {
        self.kind = kind
        self.providerID = providerID
        self.endpoint = endpoint
        self.method = method
    }
}

/// What the engine learned while an operation ran, for the instrumentation to read when it ends.
public final class AuthOperationOutcome: Sendable {
    private let status = LockedValue<Int?>(nil)

    /// Creates an empty outcome.
    public init() {}

    /// The HTTP status of the response, for HTTP requests that got one.
    public var httpStatus: Int? { status.withLock { $0 } }

    /// Records the HTTP status.
    package func record(httpStatus: Int) {
        status.withLock { $0 = httpStatus }
    }
}

/// Something countable that is not an operation of its own.
public struct AuthInstrumentationEvent: Sendable, Hashable {
    /// The event's kind.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A refresh request joined one already in flight for the same account instead of sending its own.
        public static let refreshCoalesced = Kind(rawValue: "refresh_coalesced")
        /// A key set (JWKS) was fetched: the first time, after its cache age, or for an unknown key id.
        public static let keySetFetched = Kind(rawValue: "jwks_fetched")
    }

    /// The event.
    public let kind: Kind
    /// The provider it happened for.
    public let providerID: ProviderID

    /// Creates an event.
    public init(kind: Kind, providerID: ProviderID) {
        self.kind = kind
        self.providerID = providerID
    }
}
