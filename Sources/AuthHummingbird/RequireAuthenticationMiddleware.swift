#if HummingbirdSignIn
    import AuthCore
    public import AuthWebSignIn
    public import Hummingbird

    /// Guards the routes behind it with a `WebAuthenticationRequirement` (an `acr`, a recent authentication): a
    /// session that falls short is sent through a step-up sign-in and back (`WebSignInCore.requireAuthentication(_:request:)`
    /// says what each request gets). Make it with `WebSignIn.requiring(_:)`, behind `WebSignIn.middleware`.
    ///
    /// ```swift
    /// let payments = router.group("payments").add(middleware: webSignIn.requiring(WebAuthenticationRequirement(acrValues: ["urn:example:mfa"])))
    /// ```
    public struct RequireAuthenticationMiddleware<Context: WebSignInRequestContext>: RouterMiddleware {
        let core: WebSignInCore
        /// What the routes behind it require.
        public let requirement: WebAuthenticationRequirement

        /// Serves the request when the session meets the requirement; otherwise answers with the step-up redirect,
        /// `401` or `403`.
        public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                if let answer = try await core.requireAuthentication(requirement, request: WebRequest(request, body: nil)) { return Response(answer) }
            } catch let error as AuthError where error.code == .storageUnavailable {
                return Response(WebResponse.storeUnavailable)
            }
            return try await next(request, context)
        }
    }

    extension WebSignIn {
        /// A middleware that requires `requirement` of the signed-in user's authentication for the routes behind it.
        public func requiring(_ requirement: WebAuthenticationRequirement) -> RequireAuthenticationMiddleware<Context> {
            RequireAuthenticationMiddleware(core: core, requirement: requirement)
        }
    }
#endif
