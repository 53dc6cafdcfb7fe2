public import AuthCore

extension AuthClient {
    /// Creates a client that sends its requests through URLSession (``URLSessionTransport``) — the usual choice
    /// in an app. On a server pass `transport:` (AuthAsyncHTTPClient's `AsyncHTTPClientTransport`) instead.
    ///
    /// - Parameters:
    ///   - provider: the provider, for example built by a `ProviderRegistry` from its id and configuration.
    ///   - storage: where credentials live; in memory by default (nothing survives the process).
    ///   - logger: swift-log by default.
    ///   - clock: the system clock by default.
    ///   - options: tunables (refresh margin, request limits, JWKS refetch interval, …).
    ///   - instrumentation: tracing and metrics; none by default.
    public convenience init(
        provider: any AuthProvider,
        storage: any TokenStorage = InMemoryTokenStorage(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        options: Options = Options(),
        instrumentation: Instrumentation = .none
    ) {
        self.init(
            provider: provider,
            storage: storage,
            transport: URLSessionTransport(),
            logger: logger,
            clock: clock,
            options: options,
            instrumentation: instrumentation
        )
    }
}
