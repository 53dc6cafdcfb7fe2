public import AuthCore

// The codes only an app's sign-in raises — an app hand-off, a callback waited for, a web-authentication sheet —
// live with that support, not in the core every server links.
extension AuthError.Code {
    /// A sign-in for this client is already in progress.
    public static let signInInProgress: Self = "sign_in_in_progress"
    /// A newer sign-in replaced this one while it waited for an app's callback.
    public static let signInSuperseded: Self = "sign_in_superseded"
    /// The task waiting for the sign-in was cancelled (not the user: see `userCancelled`).
    public static let signInCancelled: Self = "sign_in_cancelled"
    /// The provider's native app could not be opened (not installed, or it refused the link); callers fall back.
    public static let appNotOpened: Self = "app_not_opened"
}
