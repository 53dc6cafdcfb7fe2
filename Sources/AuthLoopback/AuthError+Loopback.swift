public import AuthCore

/// The codes of answers the loopback listener cannot take (``LoopbackUserAgent``). Each ends the sign-in at once when
/// the request names the pending `state` (only the provider, or the browser it redirected, has it); one that does
/// not is answered and ignored, and its code is the one the wait ends with if no usable answer follows.
extension AuthError.Code {
    /// The provider answered with another method than it was asked to: a `GET` (the code in the URL) to a sign-in
    /// that asked for `response_mode=form_post`, a `POST` to one that asked for the query, or neither method.
    public static let redirectMethodMismatch: Self = "redirect_method_mismatch"
    /// A `POST` answer whose body is not an `application/x-www-form-urlencoded` form.
    public static let redirectFormInvalid: Self = "redirect_form_invalid"
    /// A `POST` answer whose body is larger than ``LoopbackUserAgent/maximumFormBodySize``.
    public static let redirectTooLarge: Self = "redirect_too_large"
}
