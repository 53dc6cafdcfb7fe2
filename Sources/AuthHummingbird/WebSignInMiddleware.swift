#if WebSignIn
public import Hummingbird

/// Puts the browser's signed-in user (``SignedInUser``) into the request context of every request behind it, from
/// the session cookie; an unknown, expired or forged cookie is simply no user.
public struct WebSignInMiddleware<Context: WebSignInRequestContext>: RouterMiddleware {
    let webSignIn: WebSignIn<Context>

    /// Loads the session, then calls the next responder.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.signedInUser = try await webSignIn.signedInUser(for: request)
        return try await next(request, context)
    }
}
#endif
