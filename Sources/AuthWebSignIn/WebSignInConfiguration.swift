public import AuthCore
public import Foundation

/// How ``WebSignInCore`` (and the adapters over it) name the routes and set the cookies.
///
/// The cookies are always `Secure` and `HttpOnly`, and `__Host-` prefixed (bound to this exact origin, path `/`, no
/// `Domain`); the only choice is `SameSite`, and only towards stricter: `Lax` (the default) or `Strict` for the
/// session cookie. The sign-in cookie is `Lax`, the strictest setting a provider's redirect back still carries —
/// except for a provider that answers with a cross-site form POST (`response_mode=form_post`, Sign in with Apple):
/// a browser does not send a `Lax` cookie with that POST, so that provider's sign-in cookie is `SameSite=None` (see
/// ``WebSignInCore`` for why that is safe).
///
/// ## Deploy on a host name of its own
/// Cookies are not port-scoped (RFC 6265 §8.5), and `__Host-` forbids only `Domain` and requires `Secure` and
/// `Path=/`: any other server on the same host name — another port of `127.0.0.1`, another app on a shared
/// `localhost` — can set the app's cookies, planting its own session (the user then acts as the attacker) or a
/// sign-in cookie of its own. In production give the app a host name no other server answers on; `127.0.0.1` and
/// `localhost` are for development, where every local server is trusted.
public struct WebSignInConfiguration: Sendable {
    /// `SameSite` of the session cookie.
    public enum SameSite: String, Sendable {
        /// Sent on top-level navigations from other sites (a link to the app) and on the app's own requests.
        case lax = "Lax"
        /// Sent on the app's own requests only: a user arriving from a link looks signed out until the next request.
        case strict = "Strict"
    }

    /// The app's origin as browsers reach it (`https://app.example.com`): callback URLs are built from it, so a
    /// `Host` header cannot redirect a sign-in elsewhere.
    public var publicURL: URL
    /// The routes' first path segment: `/<prefix>/{provider}/login`, `/<prefix>/{provider}/callback`,
    /// `/<prefix>/logout`, `/<prefix>/session`.
    public var pathPrefix: String
    /// How long a browser session lasts, whatever the tokens' lifetime.
    public var sessionLifetime: TimeInterval
    /// `SameSite` of the session cookie: `Lax` or, stricter, `Strict`.
    public var sessionCookieSameSite: SameSite
    /// Where the browser goes after signing in.
    public var afterSignIn: String
    /// Where the browser goes after signing out when the provider has no end-session endpoint.
    public var afterSignOut: String
    /// Options for each provider's sign-ins (`acrValues`, `prompt`, …), by the provider's name in the routes.
    public var signInOptions: [String: SignInOptions]
    /// The 32-byte key that seals a sign-in waiting for its callback into the browser's sign-in cookie (AES-256-GCM),
    /// the same on every instance of the app; `nil` draws a random key for this process, enough for one instance.
    /// It may be the session store's key (the cookie's own key is derived from it with HKDF); keep it in a secret
    /// manager.
    public var signInCookieKey: Data?
    /// How long an instance trusts a session it read from a store shared by several instances (2 seconds by
    /// default; `0` reads the store on every request): most requests of a signed-in browser then need no database
    /// round trip, and a sign-out or back-channel logout carried out by another instance takes effect on this one
    /// within this time (on the instance that carried it out, at once).
    public var sessionCacheLifetime: TimeInterval
    /// How many browser sessions one user of a provider may hold at once (20 by default): a sign-in beyond it ends
    /// the user's oldest sessions, with their credentials. It bounds what one account can make the store hold (each
    /// session keeps a credential of its own).
    public var maximumSessionsPerSubject: Int = 20

    /// The session cookie's name.
    public static let sessionCookieName = "__Host-auth_session"
    /// The sign-in cookie's name: it holds the sealed sign-in of the browser that started it.
    public static let signInCookieName = "__Host-auth_signin"

    /// Creates a configuration.
    public init(
        publicURL: URL,
        pathPrefix: String = "auth",
        sessionLifetime: TimeInterval = 8 * 3600,
        sessionCookieSameSite: SameSite = .lax,
        afterSignIn: String = "/",
        afterSignOut: String = "/",
        signInOptions: [String: SignInOptions] = [:],
        signInCookieKey: Data? = nil,
        sessionCacheLifetime: TimeInterval = 2
    ) {
        self.publicURL = publicURL
        self.pathPrefix = pathPrefix
        self.sessionLifetime = sessionLifetime
        self.sessionCookieSameSite = sessionCookieSameSite
        self.afterSignIn = afterSignIn
        self.afterSignOut = afterSignOut
        self.signInOptions = signInOptions
        self.signInCookieKey = signInCookieKey
        self.sessionCacheLifetime = sessionCacheLifetime
    }

    /// The callback URL of `provider`: what the provider must have registered.
    public func callbackURL(for provider: String) -> URL {
        URL(string: publicURL.absoluteString.trimmingSuffix("/") + "/\(pathPrefix)/\(provider)/callback")!
    }

    /// The sign-in URL of `provider`: what a "Sign in with …" button links to.
    public func loginPath(for provider: String) -> String { "/\(pathPrefix)/\(provider)/login" }
    /// The sign-out route (POST, with the session's CSRF token).
    public var logoutPath: String { "/\(pathPrefix)/logout" }
    /// The JSON session route.
    public var sessionPath: String { "/\(pathPrefix)/session" }
    /// The native-app nonce route of `provider` (POST): a single-use nonce for an ID token the app obtains natively.
    public func nativeNoncePath(for provider: String) -> String { "/\(pathPrefix)/\(provider)/native/nonce" }
    /// The native-app sign-in route of `provider` (POST): the ID token the app obtained natively, for a session.
    public func nativeSignInPath(for provider: String) -> String { "/\(pathPrefix)/\(provider)/native/sign-in" }
}
