/// A `Set-Cookie` value as the core writes every cookie: `__Host-` names, `Path=/`, `Secure`, `HttpOnly`, no
/// `Domain`, and a `SameSite` attribute (`Max-Age=0` with an empty value removes it).
struct WebCookie: Sendable, Hashable {
    /// `SameSite`, including `None`, which only a form_post provider's sign-in cookie uses.
    enum SameSite: String, Sendable {
        case lax = "Lax"
        case strict = "Strict"
        /// Sent with cross-site requests too; browsers require `Secure` with it (which every cookie here has).
        case none = "None"
    }

    let name: String
    let value: String
    let maxAge: Int
    let sameSite: SameSite

    /// The `Set-Cookie` field value, attributes in Hummingbird's order (what the app sent before the core existed).
    var headerValue: String {
        "\(name)=\(value); Max-Age=\(maxAge); Path=/; Secure; HttpOnly; SameSite=\(sameSite.rawValue)"
    }

    /// A cookie that removes `name` (same attributes, so the browser matches and drops it).
    static func removal(_ name: String, sameSite: SameSite) -> WebCookie {
        WebCookie(name: name, value: "", maxAge: 0, sameSite: sameSite)
    }
}

extension WebCookie.SameSite {
    /// The session cookie's setting from the configuration's.
    init(_ setting: WebSignInConfiguration.SameSite) {
        self = setting == .strict ? .strict : .lax
    }
}
