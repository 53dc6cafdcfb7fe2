public import AuthCore
public import Foundation

/// What a finished web authentication session means for the sign-in — a pure decision, tested on every platform; the
/// Apple shell (`WebAuthenticationSessionUserAgent`) only reads `ASWebAuthenticationSession`'s answer into it.
///
/// - A callback the matcher accepts is the answer (its parameters are the engine's to check).
/// - The user closing the sheet, or the app cancelling the sign-in (a cancelled task, a vendor API's `cancel` or
///   `finalise`), is `user_cancelled` — never a failure to report.
/// - Anything else, a URL the matcher refuses included, is `authorization_failed`.
public enum WebSessionOutcome {
    /// The result of a session that ended with `url` (or none), `cancelled` when the system reported the user's or the
    /// app's cancellation.
    public static func result(
        url: URL?,
        cancelled: Bool,
        error: (any Error)?,
        matcher: CallbackMatcher,
        providerID: ProviderID
    ) -> Result<URL, AuthError> {
        if let url, matcher.matches(url) { return .success(url) }
        if cancelled {
            return .failure(AuthError(.userCancelled, "The sign-in page was closed before the sign-in finished.", providerID: providerID))
        }
        if url != nil {
            return .failure(
                AuthError(
                    .authorizationFailed, "The web sign-in returned to a URL that is not this sign-in's redirect URI.", providerID: providerID
                ))
        }
        return .failure(AuthError(.authorizationFailed, "The web sign-in failed.", providerID: providerID, underlying: error))
    }
}
