public import Foundation

/// The one error type of swift-auth-providers.
///
/// Every failure, whichever provider or layer it comes from, is an `AuthError` with a stable ``code`` that
/// programs can switch on, a ``message`` that is safe to show or log, and the ``providerID`` it concerns.
/// Neither the code nor the message ever contains a token, code, verifier, client secret or header value.
///
/// Providers whose vendor SDKs users migrate from map these codes to the names those users know (for example
/// Grab's error domains); that mapping is a view of this error, not a second error system.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code such as `state_mismatch`.
    ///
    /// Codes are open-ended string values (like HTTP status codes) so providers can add their own without
    /// breaking exhaustive switches; compare them with the static members in `AuthError.Code`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code's stable text, in snake_case.
        public let rawValue: String
        /// Creates a code from its stable text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The code's stable text.
        public var description: String { rawValue }
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// A human-readable explanation that says what to fix; safe to display and to log.
    public var message: String
    /// The provider the failing operation was for, when known.
    public var providerID: ProviderID?
    /// The OAuth 2.0 `error` value the server returned (for example `invalid_grant`), when there was one.
    public var oauthError: String?
    /// The HTTP status of the response that caused the error, when there was one.
    public var httpStatus: Int?
    /// The endpoint the error concerns, by its discovery member name (`token_endpoint`, `userinfo_endpoint`, …), when
    /// one does: a member missing from discovery, an endpoint the provider lacks, or the endpoint whose answer was
    /// refused. Vendor-shaped error views map on it, never on message text.
    public var endpoint: String?
    /// The configuration key the error concerns (`ClientId`, `RedirectUrl`, an environment variable), when one
    /// does: the key to fix. Programs map on it, never on message text.
    public var configurationKey: String?
    /// The lower-level error that caused this one (a `URLError`, a decoding error, …), if any.
    ///
    /// Not included in ``description``: lower layers do not promise to keep secrets out of their descriptions.
    public var underlying: (any Error & Sendable)?
    /// Why the account this error concerns was signed out because of it — set only where the stored credential was
    /// removed (a refresh token the provider refused, a refreshed identity its rule refused); `nil` otherwise, and then
    /// the session stays signed in.
    package var signOutReason: AuthEvent.SignOutReason?
    /// How long the server asked the client to wait before trying again (its `Retry-After`, RFC 9110 §10.2.3), when
    /// it said: on `rate_limited` and `server_error`.
    public var retryAfter: Duration?
    /// What the resource asked of the user's authentication, on `step_up_required` and `step_up_loop` (RFC 9470).
    public var stepUp: StepUpRequirement?
    /// Whether the request may have reached the provider and its answer been lost — a transport failure or timeout
    /// after sending, a cancellation in flight, a success answer that could not be read. For a refresh, the provider
    /// may then have rotated the refresh token already (the engine marks the stored credential, so a later
    /// `invalid_grant` says that a refresh answer was lost).
    package var answerMayBeLost = false
    /// Retryable whatever the code says: an `invalid_response` to a token request that the server may have carried out
    /// (a truncated or garbled success) is worth trying again, unlike a well-formed refusal.
    package var isTransient = false

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        providerID: ProviderID? = nil,
        oauthError: String? = nil,
        httpStatus: Int? = nil,
        endpoint: String? = nil,
        configurationKey: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        // Messages quote provider text (an `iss`, `alg`, `kid`, an error description): no control, escape or
        // bidirectional-override character reaches an app's UI, a log or a terminal.
        self.message = ProviderText.sanitized(message, limit: 2000)
        self.providerID = providerID
        self.oauthError = oauthError.map { ProviderText.sanitized($0, limit: 200) }
        self.httpStatus = httpStatus
        self.endpoint = endpoint
        self.configurationKey = configurationKey
        self.underlying = underlying
    }

    /// Whether trying the same operation again later may succeed (network trouble, a 5xx, a locked keychain).
    ///
    /// A retryable error never signs the user out.
    public var isRetryable: Bool {
        isTransient || Self.retryableCodes.contains(code)
    }

    static let retryableCodes: Set<Code> = [.network, .timedOut, .serverError, .rateLimited, .storageUnavailable]

    /// `[provider] code: message`, without any secret.
    public var description: String {
        var text = "AuthError(\(code.rawValue))"
        if let providerID { text += " [\(providerID)]" }
        text += ": \(message)"
        if let oauthError, !message.contains(oauthError) { text += " (OAuth error: \(oauthError))" }
        return text
    }

    /// A copy of this error attributed to `providerID`, unless it already names one.
    package func attributed(to providerID: ProviderID) -> AuthError {
        var copy = self
        if copy.providerID == nil { copy.providerID = providerID }
        return copy
    }
}

extension AuthError: LocalizedError {
    /// The safe message, so `localizedDescription` shows it too.
    public var errorDescription: String? { message }
}
