#if VaporSignIn
    import AuthCore
    public import AuthWebSignIn
    public import Vapor

    /// Puts the browser's signed-in user into `Request.signedInUser` for every request behind it, from the session
    /// cookie; an unknown, expired or forged cookie is simply no user.
    ///
    /// When the session store cannot answer (its database is down or restarting), the request — and any behind this
    /// middleware that meets the same failure — gets a 503 page with `Retry-After` at once instead of hanging or a bare
    /// 500; the next request after the database returns works again, with no restart of the app.
    public struct VaporWebSignInMiddleware: AsyncMiddleware {
        /// The core that reads the session.
        public let core: WebSignInCore

        /// A middleware that reads sessions with `core`.
        public init(core: WebSignInCore) {
            self.core = core
        }

        /// Loads the session, then calls the next responder.
        public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            do {
                request.signedInUser = try await core.signedInUser(for: WebRequest(request))
                return try await next.respond(to: request)
            } catch let error as AuthError where error.code == .storageUnavailable {
                return Response(WebResponse.storeUnavailable)
            }
        }
    }
#endif
