public import AuthCore
public import Foundation

/// One exchanged token for a session, kept apart from the session's own credential and asked for again when it
/// expires: OAuth 2.0 Token Exchange (RFC 8693) issues no refresh token for it, so "refreshing" it is exchanging again.
///
/// Concurrent callers share one exchange.
///
/// ```swift
/// let orders = ExchangedTokenSource(session: session, request: TokenExchangeRequest(audience: ["https://orders.example.com"]))
/// let (data, response) = try await orders.send(HTTPRequest(method: .get, url: ordersURL))
/// ```
public actor ExchangedTokenSource {
    /// The session whose token is exchanged.
    public nonisolated let session: Session
    /// What is asked for each time.
    public nonisolated let request: TokenExchangeRequest
    /// How long before its expiry a token is exchanged again.
    public nonisolated let margin: TimeInterval

    private var current: ExchangedToken?
    private var pending: Task<ExchangedToken, any Error>?

    /// A source of tokens for `request`, exchanged from `session`'s, renewed `margin` seconds before they expire.
    public init(session: Session, request: TokenExchangeRequest, margin: TimeInterval = 30) {
        self.session = session
        self.request = request
        self.margin = margin
    }

    /// The current exchanged token, or a new one when there is none or it expires within ``margin``.
    ///
    /// - Throws: as `Session.exchangeToken(_:)`.
    public func token() async throws -> ExchangedToken {
        if let current, !isExpiring(current) { return current }
        if let pending { return try await pending.value }
        let task = Task { [session, request] in try await session.exchangeToken(request) }
        pending = task
        defer { pending = nil }
        let fresh = try await task.value
        current = fresh
        return fresh
    }

    /// Forgets the current token, so the next ``token()`` exchanges again (after a resource server refused it).
    public func invalidate() {
        current = nil
    }

    /// Sends `request` with the exchanged token (`Bearer`, or `DPoP` with a proof for a bound one); a 401 exchanges
    /// again once and retries once.
    ///
    /// - Throws: as ``token()``; `network_error` when the request cannot be sent.
    public func send(_ request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        let token = try await token()
        let first = try await session.client.send(request, body: body, presenting: token.token, dpopKey: token.dpopKey)
        guard first.1.status == .unauthorized else { return first }
        if current?.token == token.token { current = nil }
        let fresh = try await self.token()
        return try await session.client.send(request, body: body, presenting: fresh.token, dpopKey: fresh.dpopKey)
    }

    private func isExpiring(_ token: ExchangedToken) -> Bool {
        guard let expiresAt = token.expiresAt else { return false }
        return expiresAt.timeIntervalSince(session.client.clock.now()) <= margin
    }
}
