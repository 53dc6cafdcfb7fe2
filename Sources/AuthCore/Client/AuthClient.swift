public import Foundation

/// Signs users in with one provider and hands out ``Session``s.
///
/// The client runs the OAuth 2.0 authorization-code flow with PKCE and OpenID Connect on behalf of its
/// ``provider``, sending HTTP through its transport, keeping credentials in its ``storage`` and reporting to
/// its logger. Discovery documents and key sets are cached per client; outstanding `state` values are held
/// in memory until their redirect arrives (each consumed once).
///
/// ```swift
/// let client = AuthClient(provider: provider, storage: FileTokenStorage(directory: dir),   // AuthFileStorage
///                         transport: AsyncHTTPClientTransport())     // or URLSessionTransport() in an app
/// let session = try await client.signIn(with: userAgent)
/// ```
public final class AuthClient: Sendable {
    /// Tunables with safe defaults.
    public struct Options: Sendable {
        /// Refresh access tokens this many seconds before they expire.
        public var refreshMargin: TimeInterval
        /// How long an authorization request waits for its redirect.
        public var authorizationLifetime: TimeInterval
        /// The largest back-channel response body accepted.
        public var maximumResponseSize: Int
        /// The shortest interval between two JWKS refetches triggered by unknown key ids.
        public var keySetRefetchInterval: TimeInterval
        /// The overall deadline of one back-channel request, body included (not an idle timer).
        public var requestTimeout: Duration
        /// How long a key set is trusted when its response has no `Cache-Control: max-age` — and the cap on any
        /// `max-age` — so a key the provider withdrew stops validating without a restart.
        public var keySetMaximumAge: TimeInterval
        /// How a device sign-in waits between polls (AuthDeviceFlow's `completeDeviceAuthorization(_:onPoll:)`):
        /// `Task.sleep` by default; tests inject one that records the intervals and returns at once.
        package var pollingSleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

        /// Creates options.
        public init(
            refreshMargin: TimeInterval = 60,
            authorizationLifetime: TimeInterval = 600,
            maximumResponseSize: Int = 1 << 20,
            keySetRefetchInterval: TimeInterval = 60,
            requestTimeout: Duration = .seconds(30),
            keySetMaximumAge: TimeInterval = 24 * 3600
        ) {
            self.refreshMargin = refreshMargin
            self.authorizationLifetime = authorizationLifetime
            self.maximumResponseSize = maximumResponseSize
            self.keySetRefetchInterval = keySetRefetchInterval
            self.requestTimeout = requestTimeout
            self.keySetMaximumAge = keySetMaximumAge
        }

        /// The limits of every request the client sends.
        package var requestLimits: HTTPRequestLimits {
            HTTPRequestLimits(maximumResponseSize: maximumResponseSize, timeout: requestTimeout)
        }
    }

    /// The provider this client signs in with.
    public let provider: any AuthProvider
    /// Where credentials are kept.
    public let storage: any TokenStorage
    /// How HTTP requests are sent: the transport given to the initializer behind a ``GuardedTransport``, so
    /// every request — the engine's, a session's, a provider's own endpoint's — is https-only (or loopback-IP
    /// http) and runs under ``Options/requestLimits``.
    package let transport: any HTTPTransport
    /// Where events go.
    package let logger: any AuthLogger
    /// The source of the current time.
    package let clock: any WallClock
    /// Tunables.
    public let options: Options
    /// Where operations are traced and counted (nothing by default).
    package let instrumentation: any AuthInstrumentation

    /// The HTTP client of the provider's endpoints (discovery, JWKS, token, revocation, …) over ``transport``.
    let providerHTTP: ProviderHTTPClient
    /// The token endpoint every grant goes through: sign-in, refresh, device sign-in.
    let tokenEndpoint: TokenEndpoint
    /// Verifies ID tokens (and owns the provider's key cache) for sign-in, refresh, device sign-in and imports.
    let idTokenVerifier: IDTokenVerifier
    let metadataCache = MetadataCache()
    let pendingSignIns = PendingSignInStore()
    /// One refresh at a time per account within a process, whichever ``Session`` value asks: two sessions restored
    /// for the same storage key (or a session and a direct engine call) share one request instead of racing each
    /// other with the same rotating refresh token.
    let refreshes = SingleFlight<StorageKey, (Credential, IDTokenClaims?)>()
    let logoutTokenIDs = SeenTokenIDs()
    let eventHub = EventHub()
    /// The latest `DPoP-Nonce` of each server: the token endpoint's and resource servers' (RFC 9449 §8, §9).
    let dpopNonces: DPoPNonceStore

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - provider: the provider, for example built by a ``ProviderRegistry`` from its id and configuration.
    ///   - storage: where credentials live; in memory by default (nothing survives the process).
    ///   - transport: how requests are sent: `AsyncHTTPClientTransport` (AuthAsyncHTTPClient) on a server,
    ///     `URLSessionTransport` (AuthURLSession) in an app — AuthURLSession also adds an initializer without this
    ///     parameter that uses URLSession.
    ///   - logger: swift-log by default.
    ///   - clock: the system clock by default.
    ///   - options: tunables (refresh margin, authorization lifetime, response size limit and request deadline,
    ///     JWKS refetch interval and maximum age).
    ///   - instrumentation: tracing and metrics (AuthObservability's `.observability()`); ``Instrumentation/none`` by
    ///     default.
    public init(
        provider: any AuthProvider,
        storage: any TokenStorage = InMemoryTokenStorage(),
        transport: any HTTPTransport,
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        options: Options = Options(),
        instrumentation: Instrumentation = .none
    ) {
        let instrumentation = instrumentation.backend
        let guarded = GuardedTransport(transport, limits: options.requestLimits)
        let providerHTTP = ProviderHTTPClient(
            transport: guarded,
            logger: logger,
            providerID: provider.id,
            limits: options.requestLimits,
            clock: clock,
            retryGate: RetryAfterGate(),
            instrumentation: instrumentation
        )
        let dpopNonces = DPoPNonceStore()
        self.provider = provider
        self.storage = storage
        self.transport = guarded
        self.logger = logger
        self.clock = clock
        self.options = options
        self.instrumentation = instrumentation
        self.providerHTTP = providerHTTP
        self.dpopNonces = dpopNonces
        // Built once here, not per request: the sign-in and validation paths then cost no more than a field read.
        self.tokenEndpoint = TokenEndpoint(provider: provider, http: providerHTTP, dpopNonces: dpopNonces, clock: clock)
        self.idTokenVerifier = IDTokenVerifier(
            provider: provider,
            http: providerHTTP,
            keySets: KeySetCache(),
            clock: clock,
            keySetRefetchInterval: options.keySetRefetchInterval,
            keySetMaximumAge: options.keySetMaximumAge
        )
    }

    /// The provider's id. Package-only shorthand: an app spells it `provider.id`.
    package var providerID: ProviderID { provider.id }

    /// Runs `body` as `kind` through the client's instrumentation.
    func instrumented<Result: Sendable>(
        _ kind: AuthOperation.Kind,
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await instrumentation.withOperation(AuthOperation(kind: kind, providerID: provider.id)) { _ in try await body() }
    }

    /// Logs an event through the client's logger, attributed to its provider. Providers use it for their own
    /// steps; never pass a secret (``Secret`` values print as `<redacted>`). The message and metadata are built only
    /// when the logger wants `level` (``AuthLogger/isEnabled(_:)``).
    package func log(
        _ level: AuthLogRecord.Level,
        _ event: String,
        _ message: @autoclosure () -> String,
        _ metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard logger.isEnabled(level) else { return }
        logger.log(
            AuthLogRecord(level: level, event: event, message: message(), metadata: metadata(), providerID: provider.id)
        )
    }
}
