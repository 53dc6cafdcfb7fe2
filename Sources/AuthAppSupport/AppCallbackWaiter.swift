public import AuthCore
public import Foundation

/// Hands a sign-in to a provider's native app and waits for the app's callback — the one implementation Grab,
/// Uber and any third-party provider with an app hand-off share.
///
/// The wait always ends, with the callback or a typed error:
/// - the app calls back: the host app passes the URL to ``deliver(_:)``, which matches it against the awaited
///   redirect (scheme, host, port, path) and hands it over once; a second delivery returns `false`;
/// - the app does not open: `app_not_opened`, so the caller can fall back (another app, the App Store, the web);
/// - the user never comes back: `timed_out` after ``timeout``, measured on the injected clock;
/// - the app cancels (a Cancel button): ``cancel()`` ends it with `user_cancelled`;
/// - the awaiting task is cancelled: `sign_in_cancelled`;
/// - a newer hand-off starts, or a newer login begins (`beginLogin()`): the older one ends with
///   `sign_in_superseded`, so no continuation is ever leaked and a retry never waits for an abandoned app.
///
/// ``deliver(_:)`` and ``cancel()`` are synchronous, so `application(_:open:options:)` can answer at once.
public final class AppCallbackWaiter: Sendable {
    /// How long a hand-off waits by default: ten minutes, the lifetime of a pending authorization.
    public static let defaultTimeout: Duration = .seconds(600)

    /// The provider the errors name.
    public let providerID: ProviderID
    /// How long a hand-off waits for the callback.
    public let timeout: Duration
    private let clock: any WallClock
    private let current = LockedValue(Waiting())

    /// The hand-off waiting for its callback, and the newest login begun, whose hand-offs alone may start.
    private struct Waiting {
        var attempt: Attempt?
        var newestLogin: UInt64 = 0
    }

    /// Creates a waiter.
    ///
    /// - Parameters:
    ///   - providerID: the provider named in errors and logs.
    ///   - clock: measures the timeout (a manual clock in tests).
    ///   - timeout: how long to wait for the app's callback.
    public init(providerID: ProviderID, clock: any WallClock = SystemWallClock(), timeout: Duration = AppCallbackWaiter.defaultTimeout) {
        self.providerID = providerID
        self.clock = clock
        self.timeout = timeout
    }

    /// Whether a hand-off is waiting for its callback.
    public var isWaiting: Bool { current.withLock { $0.attempt != nil } }

    /// Begins a login that replaces every earlier one: a hand-off waiting for its callback ends with
    /// `sign_in_superseded` now, and a hand-off an earlier login starts later is refused the same way (see
    /// ``handOff(_:through:redirectURI:appName:login:)``). A user who left the app without answering can so log in
    /// again at once, and only the newest login ever waits for an app.
    ///
    /// - Returns: the login's number, for its hand-offs.
    package func beginLogin() -> UInt64 {
        let (login, waiting) = current.withLock { current -> (UInt64, Attempt?) in
            current.newestLogin += 1
            defer { current.attempt = nil }
            return (current.newestLogin, current.attempt)
        }
        waiting?.finish(.failure(superseded(waiting: waiting?.appName)))
        return login
    }

    /// Opens `url` through `handoff` and returns the callback that matches `redirectURI`.
    ///
    /// - Parameters:
    ///   - url: the deep or universal link that starts the login in the app.
    ///   - handoff: opens it.
    ///   - redirectURI: the redirect the app calls back with (matched without its query).
    ///   - appName: the app's name for error messages ("the Grab app").
    /// - Throws: `AuthError` with `app_not_opened`, `timed_out`, `user_cancelled`, `sign_in_cancelled` or
    ///   `sign_in_superseded`.
    public func handOff(_ url: URL, through handoff: any AppHandoff, redirectURI: URL, appName: String) async throws -> URL {
        try await handOff(url, through: handoff, redirectURI: redirectURI, appName: appName, login: nil)
    }

    /// ``handOff(_:through:redirectURI:appName:)`` for the login numbered `login` by ``beginLogin()``: refused with
    /// `sign_in_superseded`, before anything opens, when a newer login has begun since.
    package func handOff(_ url: URL, through handoff: any AppHandoff, redirectURI: URL, appName: String, login: UInt64?) async throws -> URL {
        let attempt = Attempt(redirectURI: redirectURI, appName: appName)
        // Checked and recorded under one lock, so an older login can never start waiting after a newer one began.
        let (older, refused) = current.withLock { current -> (Attempt?, Bool) in
            if let login, login != current.newestLogin { return (nil, true) }
            defer { current.attempt = attempt }
            return (current.attempt, false)
        }
        if refused {
            throw AuthError(.signInSuperseded, "A newer login replaced this one before it opened \(appName).", providerID: providerID)
        }
        older?.finish(.failure(superseded(waiting: older?.appName)))
        defer { current.withLock { if $0.attempt === attempt { $0.attempt = nil } } }

        let deadline = clock.now().addingTimeInterval(timeout.seconds)
        let (clock, providerID, timeout) = (self.clock, self.providerID, self.timeout)
        let timer = Task {
            guard (try? await clock.sleep(until: deadline)) != nil else { return }
            attempt.finish(
                .failure(AuthError(.timedOut, "\(appName) did not call back within \(Int(timeout.seconds)) seconds; the login was abandoned. Try again.", providerID: providerID)))
        }
        defer { timer.cancel() }
        Task {
            guard await handoff.open(url) == false else { return }
            attempt.finish(.failure(AuthError(.appNotOpened, "\(appName) could not be opened.", providerID: providerID)))
        }
        return try await withTaskCancellationHandler {
            try await attempt.wait()
        } onCancel: {
            attempt.finish(.failure(AuthError(.signInCancelled, "The task waiting for \(appName) was cancelled.", providerID: providerID)))
        }
    }

    /// Offers a URL the host app received; `true` when it is the awaited callback, which is then handed over.
    ///
    /// Only the scheme, host, port and path are matched here; the engine then checks `state`, `iss` and the code.
    public func deliver(_ url: URL) -> Bool {
        let attempt = current.withLock { current -> Attempt? in
            guard let attempt = current.attempt, AuthorizationResponse.redirect(url, matches: attempt.redirectURI) else { return nil }
            current.attempt = nil
            return attempt
        }
        return attempt?.finish(.success(url)) ?? false
    }

    /// Ends the waiting hand-off with `user_cancelled`; `false` when none was waiting.
    @discardableResult
    public func cancel() -> Bool {
        let attempt = current.withLock { current -> Attempt? in
            defer { current.attempt = nil }
            return current.attempt
        }
        return attempt?.finish(.failure(AuthError(.userCancelled, "The login in the app was cancelled.", providerID: providerID))) ?? false
    }

    private func superseded(waiting appName: String?) -> AuthError {
        AuthError(.signInSuperseded, "A newer login replaced this one while it waited for \(appName ?? "the app").", providerID: providerID)
    }
}

/// One hand-off's outcome: the first of callback, failure, timeout or cancellation wins; the rest are dropped.
private final class Attempt: Sendable {
    private struct State {
        var continuation: CheckedContinuation<URL, any Error>?
        var outcome: Result<URL, any Error>?
    }

    let redirectURI: URL
    /// The app's name for messages ("The Grab app").
    let appName: String
    private let state = LockedValue(State())

    init(redirectURI: URL, appName: String) {
        self.redirectURI = redirectURI
        self.appName = appName
    }

    func wait() async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            let decided = state.withLock { state -> Result<URL, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let decided { continuation.resume(with: decided) }
        }
    }

    /// Records the outcome unless one was recorded; `true` when this call decided it.
    @discardableResult
    func finish(_ outcome: Result<URL, any Error>) -> Bool {
        let (decided, continuation) = state.withLock { state -> (Bool, CheckedContinuation<URL, any Error>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        continuation?.resume(with: outcome)
        return decided
    }
}
