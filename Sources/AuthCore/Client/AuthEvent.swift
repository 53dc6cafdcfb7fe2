/// Something that happened to a signed-in account, delivered through ``AuthClient/events()`` and
/// ``Session/events()``.
public struct AuthEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A user signed in (or an account was added).
        case signedIn
        /// The access token was refreshed (and a rotated refresh token stored).
        case refreshed
        /// A refresh failed for a transient reason; the tokens are kept. The associated value is the error code.
        case refreshFailed(AuthError.Code)
        /// The account was signed out.
        case signedOut(SignOutReason)
    }

    /// Why an account was signed out.
    public enum SignOutReason: Sendable, Equatable {
        /// The app asked for it.
        case requested
        /// The provider rejected the refresh token (`invalid_grant`): revoked, expired or reused.
        case refreshTokenRejected
        /// The provider ended the user's session and told the app through a verified back-channel logout token.
        case backChannelLogout
        /// A refreshed ID token failed the provider's identity rule (``AuthProvider/validateIdentity(_:)``): the
        /// provider now says, in a token it signed, that this user may not sign in (a Microsoft tenant or Google
        /// Workspace domain the app does not accept).
        case identityRejected
        /// The provider rejected the refresh token (`invalid_grant`) after an earlier refresh of the same token had
        /// lost its answer (a network failure, a timeout, a garbled response): the provider had rotated the token and
        /// treats its second use as theft. The user did nothing wrong; a provider with a reuse grace period (Okta,
        /// Auth0, Keycloak, django-oauth-toolkit) accepts the second use instead.
        case refreshAnswerLost
    }

    /// What happened.
    public let kind: Kind
    /// The account it happened to.
    public let account: StorageKey

    /// Creates an event.
    package init(_ kind: Kind, account: StorageKey) {
        self.kind = kind
        self.account = account
    }
}

/// Fans events out to every observer; each observer may filter (a session observes only its account).
actor EventHub {
    private struct Observer {
        let continuation: AsyncStream<AuthEvent>.Continuation
        let accepts: @Sendable (AuthEvent) -> Bool
    }

    private var observers: [Int: Observer] = [:]
    private var nextID = 0

    func subscribe(accepting accepts: @escaping @Sendable (AuthEvent) -> Bool = { _ in true }) -> AsyncStream<AuthEvent> {
        let (stream, continuation) = AsyncStream<AuthEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = nextID
        nextID += 1
        observers[id] = Observer(continuation: continuation, accepts: accepts)
        continuation.onTermination = { _ in
            Task { await self.remove(id) }
        }
        return stream
    }

    func publish(_ event: AuthEvent) {
        for observer in observers.values where observer.accepts(event) {
            observer.continuation.yield(event)
        }
    }

    private func remove(_ id: Int) {
        observers[id] = nil
    }
}
