public import AuthCore

/// The codes of web sign-in refusals (shown in the refusal page as `(code)`, and in native sign-in's JSON `error`).
extension AuthError.Code {
    /// A callback came without the browser's sign-in cookie: this browser did not start the sign-in (login CSRF), or
    /// the cookie did not reach the callback.
    public static let signInCookieMissing: Self = "sign_in_cookie_missing"
    /// The sign-in cookie was not sealed by this app's key (another app's, altered, truncated).
    public static let signInCookieInvalid: Self = "sign_in_cookie_invalid"
    /// The sign-in started more than the engine's ten minutes ago.
    public static let signInExpired: Self = "sign_in_expired"
    /// A callback came with another method than the provider was asked to answer with: a `POST` for a provider
    /// answering in the query, or a `GET` (codes in the URL) for one asked for `response_mode=form_post`.
    public static let callbackMethodMismatch: Self = "callback_method_mismatch"
    /// A `POST` callback whose body is not an `application/x-www-form-urlencoded` form.
    public static let invalidCallbackForm: Self = "invalid_callback_form"
    /// A state-changing request (sign-out) without the session's CSRF token.
    public static let csrfTokenMismatch: Self = "csrf_token_mismatch"
    /// A native sign-in request without its ID token or authorization code.
    public static let invalidNativeSignIn: Self = "invalid_native_sign_in"
    /// A request to a native sign-in route that a web page can send from another site: a form's content type
    /// (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`), an `Origin` other than the app's
    /// own, or a `Sec-Fetch-Site` other than `same-origin` or `none`. The native routes are for apps (login CSRF).
    public static let crossSiteRequest: Self = "cross_site_request"
}
