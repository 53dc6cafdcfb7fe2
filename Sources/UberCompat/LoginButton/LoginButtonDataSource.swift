import AuthUber

/// Supplies the context a ``LoginButton`` logs in with (the vendor's `LoginButtonDataSource`).
@MainActor
public protocol LoginButtonDataSource: AnyObject {
    /// The destination, prompt, exchange mode and prefill of the next login.
    func authContext(_ button: LoginButton) -> AuthContext
}

/// Receives a ``LoginButton``'s results (the vendor's `LoginButtonDelegate`).
@MainActor
public protocol LoginButtonDelegate: AnyObject {
    /// The user logged out with the button; `false` when the stored token could not be deleted.
    func loginButton(_ button: LoginButton, didLogoutWithSuccess success: Bool)
    /// A login finished.
    func loginButton(_ button: LoginButton, didCompleteLoginWithResult result: Result<UberClient, UberAuthError>)
}
