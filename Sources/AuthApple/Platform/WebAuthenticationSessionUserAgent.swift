// Compiled on Apple platforms (AuthenticationServices), and type-checked on Linux against Shims/ by
// Scripts/ci/apple-typecheck.sh. The decisions — which callbacks match, what an ending means — are the neutral
// CallbackMatcher and WebSessionOutcome, tested on Linux.
#if canImport(AuthenticationServices)
    public import AuthCore
    public import AuthenticationServices
    public import Foundation

    /// The system web session (`ASWebAuthenticationSession`) as a `UserAgent`: custom-scheme or claimed `https`
    /// callbacks, ephemeral sessions on request, one session at a time, and user cancellation as `user_cancelled`.
    ///
    /// Cancelling the task that awaits ``authorize(_:)`` closes the sheet (`ASWebAuthenticationSession.cancel()`) and
    /// ends the sign-in with `user_cancelled` at once — the agent resumes it itself, exactly once (`WebSessionResumption`),
    /// since Apple does not call the completion handler after `cancel()` — and the agent is free for the next sign-in:
    /// what a vendor API's `cancel` or GOV.UK's `finalise(callback:)` does.
    @MainActor
    public final class WebAuthenticationSessionUserAgent: NSObject, UserAgent, ASWebAuthenticationPresentationContextProviding {
        private let anchor: @MainActor () -> ASPresentationAnchor
        private var current: ASWebAuthenticationSession?
        /// The showing session's waiting sign-in, resumed once: by the completion handler or by a cancellation.
        private var resumption: WebSessionResumption?

        /// Creates an agent that presents from the window `anchor` returns.
        public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Shows `request` and returns the callback URL; closes the sheet when the calling task is cancelled, and then
        /// returns `user_cancelled` at once (Apple does not call the session's completion handler after `cancel()`).
        public nonisolated func authorize(_ request: AuthorizationRequest) async throws -> URL {
            try await withTaskCancellationHandler {
                try await present(request)
            } onCancel: {
                Task { @MainActor in self.cancelCurrent() }
            }
        }

        /// Closes the showing sheet and ends its sign-in with `user_cancelled`; the agent can show the next one.
        private func cancelCurrent() {
            let session = current
            current = nil
            resumption?.cancel()
            resumption = nil
            session?.cancel()
        }

        private func present(_ request: AuthorizationRequest) async throws -> URL {
            guard current == nil else {
                throw AuthError(.signInInProgress, "A web sign-in is already showing.", providerID: request.providerID)
            }
            // Cancelled before the sheet was shown: never show it.
            if Task.isCancelled {
                throw AuthError(.userCancelled, "The sign-in was cancelled before its page was shown.", providerID: request.providerID)
            }
            let matcher = CallbackMatcher(redirectURI: request.redirectURI)
            let providerID = request.providerID
            return try await withCheckedThrowingContinuation { continuation in
                let resumption = WebSessionResumption(continuation, providerID: providerID)
                let completion: ASWebAuthenticationSession.CompletionHandler = { [weak self] url, error in
                    MainActor.assumeIsolated {
                        // A late answer of a session already cancelled is ignored, and leaves the next session alone.
                        if let self, self.resumption === resumption {
                            self.current = nil
                            self.resumption = nil
                        }
                        let cancelled = (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin
                        resumption.finish(WebSessionOutcome.result(url: url, cancelled: cancelled, error: error, matcher: matcher, providerID: providerID))
                    }
                }
                let session: ASWebAuthenticationSession
                switch matcher {
                case .https(let host, let path):
                    if #available(iOS 17.4, macOS 14.4, *) {
                        session = ASWebAuthenticationSession(url: request.url, callback: .https(host: host, path: path), completionHandler: completion)
                    } else {
                        session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: nil, completionHandler: completion)
                    }
                case .customScheme(let scheme):
                    session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: scheme, completionHandler: completion)
                }
                session.prefersEphemeralWebBrowserSession = request.prefersEphemeralSession
                session.presentationContextProvider = self
                current = session
                self.resumption = resumption
                if !session.start() {
                    current = nil
                    self.resumption = nil
                    resumption.finish(.failure(AuthError(.authorizationFailed, "The web sign-in could not start.", providerID: providerID)))
                }
            }
        }

        /// The window the sheet is presented from.
        public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            anchor()
        }
    }
#endif
