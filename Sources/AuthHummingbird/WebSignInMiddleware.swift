#if HummingbirdSignIn
    public import Hummingbird
    import AuthCore
    import AuthWebSignIn

    /// Puts the browser's signed-in user (`SignedInUser`) into the request context of every request behind it, from
    /// the session cookie; an unknown, expired or forged cookie is simply no user.
    ///
    /// When the session store cannot answer (its database is down or restarting), the request — and any behind this
    /// middleware that meets the same failure — gets a 503 page with `Retry-After` at once instead of hanging or a bare
    /// 500; the next request after the database returns works again, with no restart of the app.
    public struct WebSignInMiddleware<Context: WebSignInRequestContext>: RouterMiddleware {
        let webSignIn: WebSignIn<Context>

        /// Loads the session, then calls the next responder.
        public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            do {
                context.signedInUser = try await webSignIn.signedInUser(for: request)
                return try await next(request, context)
            } catch let error as AuthError where error.code == .storageUnavailable {
                return Response(WebResponse.storeUnavailable)
            }
        }
    }
#endif
