package import AuthCore
package import Foundation

/// One way a login can be answered, tried in order by ``AppHandoffLogin/authorize(_:client:attempt:)``.
package enum AppHandoffAttempt: Sendable {
    /// Opens `link` in a native app and waits for the app's callback to `request`'s redirect URI.
    case app(_ link: URL, request: AuthorizationRequest, appName: String)
    /// Shows `request` in the web agent.
    case web(AuthorizationRequest)

    /// The authorization this attempt answers.
    var request: AuthorizationRequest {
        switch self {
        case .app(_, let request, _), .web(let request): request
        }
    }
}

/// The app hand-off scaffolding a vendor facade with a native app (GrabCompat's `GrabIdPartner`, UberCompat's
/// `UberAuth`) shares: the engine and callback waiter built from the facade's initialiser arguments, the one-time
/// adoption of the vendor SDK's stored session, and the login loop that hands off to the vendor's apps in order,
/// forgets each attempt that fails and ends on the web.
///
/// One rule for a login started while another waits for an app: the new login replaces it. The waiting login ends with
/// `sign_in_superseded` (a cancellation, in each vendor's error terms), its authorization is forgotten and nothing of
/// it is stored — so a user who left the app without answering can log in again at once, as with the vendor SDKs.
///
/// The facade keeps what differs: its route decision, the vendor's extra fallbacks, its result and error shapes.
package actor AppHandoffLogin {
    /// The engine.
    package nonisolated let authClient: AuthClient
    /// Awaits a native app's callback; the facade's URL handler delivers it.
    package nonisolated let appCallbacks: AppCallbackWaiter
    /// The in-app web session.
    package nonisolated let webAgent: any UserAgent
    /// Opens native apps; `nil` sends every login to the web.
    package nonisolated let appHandoff: (any AppHandoff)?
    private nonisolated let vendorStore: (any VendorStore)?
    /// The keys whose vendor session was looked for (and moved, when there was one).
    private var vendorSessionsChecked: Set<AnyHashable> = []

    /// Creates the engine for `provider` and the waiter for its apps, from a facade's initialiser arguments (whose
    /// defaults are the vendor SDKs': persistent storage, URLSession, the vendor's own stored session adopted).
    ///
    /// - Parameters:
    ///   - provider: the vendor's provider.
    ///   - webAgent: the in-app web session.
    ///   - appHandoff: opens the vendor's apps; without it every login is on the web.
    ///   - storage: where sessions are kept.
    ///   - transport: how requests are sent.
    ///   - logger: where events go.
    ///   - clock: the source of the current time and of the hand-off's deadline.
    ///   - appCallbackTimeout: how long a hand-off waits for the app's callback.
    ///   - vendorStore: where the vendor SDK kept its session; `nil` skips adoption.
    package init(
        provider: any AuthProvider,
        webAgent: any UserAgent,
        appHandoff: (any AppHandoff)?,
        storage: any TokenStorage,
        transport: any HTTPTransport,
        logger: any AuthLogger,
        clock: any WallClock,
        appCallbackTimeout: Duration,
        vendorStore: (any VendorStore)?
    ) {
        authClient = AuthClient(provider: provider, storage: storage, transport: transport, logger: logger, clock: clock)
        appCallbacks = AppCallbackWaiter(providerID: provider.id, clock: clock, timeout: appCallbackTimeout)
        self.webAgent = webAgent
        self.appHandoff = appHandoff
        self.vendorStore = vendorStore
    }

    /// Moves the vendor SDK's stored session into `client`'s storage (``authClient``'s by default) once per `key`;
    /// again on a later call only when the issuer could not be learned (offline), so start-up never needs the network.
    ///
    /// - Parameters:
    ///   - key: what the vendor kept one session per (a configuration).
    ///   - client: the engine that stores it; ``authClient`` when `nil`.
    ///   - read: the vendor's session from the store, as a credential naming `issuer`, or `nil`.
    ///   - remove: deletes the vendor's items from the store.
    package func adoptVendorSessionOnce(
        key: some Hashable & Sendable,
        client: AuthClient? = nil,
        _ read: @Sendable (_ store: any VendorStore, _ issuer: String) async throws -> Credential?,
        removingVendorCopy remove: @Sendable (_ store: any VendorStore) async throws -> Void
    ) async {
        guard let vendorStore, !vendorSessionsChecked.contains(AnyHashable(key)) else { return }
        let outcome = await (client ?? authClient).adoptVendorSessionIfPresent(
            { issuer in try await read(vendorStore, issuer) },
            removingVendorCopy: { try await remove(vendorStore) })
        if outcome != .offline { vendorSessionsChecked.insert(AnyHashable(key)) }
    }

    /// Runs a login through `routes` in order and returns the callback that answered it, with its authorization.
    ///
    /// It first replaces a login waiting for an app (see the type's rule). Then `attempt` turns each route into an
    /// attempt, only when the route is reached (so a route's authorization is prepared, and its prefill pushed, only
    /// when it is tried). An app that does not open, or no app hand-off at all, leads to the next route; any other
    /// failure ends the login. Each attempt that failed is forgotten (`AuthClient.abandon`) before the next starts, unless
    /// the next answers the same authorization (a web fallback for the same request), so a callback can only belong to
    /// the attempt that goes on; a login that fails forgets every attempt.
    ///
    /// A web agent's error other than `AuthError` is one here (`sign_in_cancelled` for a cancellation, else
    /// `authorization_failed`), so a facade maps every failure to its vendor's errors.
    ///
    /// - Parameters:
    ///   - routes: the vendor's routes in order; the last should be one that does not need an app.
    ///   - client: the engine that prepared the authorizations; ``authClient`` when `nil`.
    ///   - attempt: the attempt for a route (it may throw: a vendor's own fallback, such as Grab's App Store).
    /// - Throws: `AuthError` (`sign_in_superseded` when a newer login replaced this one), or what `attempt` throws.
    package func authorize<Route: Sendable>(
        _ routes: [Route],
        client: AuthClient? = nil,
        attempt: @Sendable (Route) async throws -> AppHandoffAttempt
    ) async throws -> (callback: URL, request: AuthorizationRequest) {
        let client = client ?? authClient
        let login = appCallbacks.beginLogin()
        var failed: [AuthorizationRequest] = []
        for route in routes {
            let next: AppHandoffAttempt
            do {
                next = try await attempt(route)
            } catch {
                await Self.forget(failed, client: client)
                throw error
            }
            let request = next.request
            await Self.forget(failed.filter { $0.state != request.state }, client: client)
            failed.removeAll { $0.state != request.state }
            do {
                switch next {
                case .web:
                    return (try await authorizeOnWeb(request, client: client), request)
                case .app(let link, _, let appName):
                    guard let appHandoff else {
                        failed.append(request)
                        continue
                    }
                    do {
                        let callback = try await appCallbacks.handOff(link, through: appHandoff, redirectURI: request.redirectURI, appName: appName, login: login)
                        return (callback, request)
                    } catch let error as AuthError where error.code == .appNotOpened {
                        client.log(.notice, "\(client.provider.id.rawValue).app.not_opened", "The app did not open; trying the next route.", ["app": appName])
                        failed.append(request)
                    }
                }
            } catch {
                await Self.forget(failed + [request], client: client)
                throw error
            }
        }
        await Self.forget(failed, client: client)
        throw AuthError(.authorizationFailed, "No login route was left to try.", providerID: client.provider.id)
    }

    /// Offers a URL the app received; `true` when it is the callback the waiting hand-off expects (see
    /// ``AppCallbackWaiter/deliver(_:)``). Synchronous, for `application(_:open:options:)`.
    package nonisolated func handle(_ url: URL) -> Bool {
        appCallbacks.deliver(url)
    }

    /// The web agent's answer; its own errors become `AuthError`.
    private func authorizeOnWeb(_ request: AuthorizationRequest, client: AuthClient) async throws -> URL {
        do {
            return try await webAgent.authorize(request)
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw AuthError(.signInCancelled, "The web login was cancelled.", providerID: client.provider.id)
        } catch {
            // A third-party web agent's own error: still an AuthError, so the vendor's error mapping always applies.
            throw AuthError(.authorizationFailed, "The web login failed.", providerID: client.provider.id, underlying: error)
        }
    }

    private static func forget(_ requests: [AuthorizationRequest], client: AuthClient) async {
        // Abandoning the same `state` twice is harmless; once per state keeps the log of pending sign-ins tidy.
        var seen: Set<String> = []
        for request in requests where seen.insert(request.state).inserted { await client.abandon(request) }
    }
}
