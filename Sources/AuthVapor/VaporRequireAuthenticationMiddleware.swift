#if VaporSignIn
    import AuthCore
    public import AuthWebSignIn
    public import Vapor

    /// Guards the routes behind it with a `WebAuthenticationRequirement` (an `acr`, a recent authentication): a
    /// session that falls short is sent through a step-up sign-in and back (`WebSignInCore.requireAuthentication(_:request:)`
    /// says what each request gets). Make it with `VaporWebSignIn.requiring(_:)`.
    ///
    /// ```swift
    /// let payments = app.grouped(webSignIn.requiring(WebAuthenticationRequirement(acrValues: ["urn:example:mfa"])))
    /// ```
    public struct VaporRequireAuthenticationMiddleware: AsyncMiddleware {
        /// The core that reads the session and starts the step-up.
        public let core: WebSignInCore
        /// What the routes behind it require.
        public let requirement: WebAuthenticationRequirement

        /// Serves the request when the session meets the requirement; otherwise answers with the step-up redirect,
        /// `401` or `403`.
        public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            do {
                if let answer = try await core.requireAuthentication(requirement, request: WebRequest(request)) { return Response(answer) }
            } catch let error as AuthError where error.code == .storageUnavailable {
                return Response(WebResponse.storeUnavailable)
            }
            return try await next.respond(to: request)
        }
    }

    extension VaporWebSignIn {
        /// A middleware that requires `requirement` of the signed-in user's authentication for the routes behind it.
        public func requiring(_ requirement: WebAuthenticationRequirement) -> VaporRequireAuthenticationMiddleware {
            VaporRequireAuthenticationMiddleware(core: core, requirement: requirement)
        }
    }
#endif
