public import Foundation

extension WebSignInConfiguration {
    /// The sign-out cookie's name: it holds the sealed `state` of a sign-out waiting for the provider's redirect back.
    public static let signOutCookieName = "__Host-auth_signout"

    /// Where `provider` sends the browser after an RP-initiated logout (`post_logout_redirect_uri`): what the provider
    /// must have registered, as ``callbackURL(for:)``. As the callback replaces a configured `redirect_uri`, this
    /// replaces a configured `post_logout_redirect_uri`, whose presence says the provider has one registered.
    public func postLogoutURL(for provider: String) -> URL {
        URL(string: publicURL.absoluteString.trimmingSuffix("/") + "/\(pathPrefix)/\(provider)/signed-out")!
    }

    /// `provider`'s `frontchannel_logout_uri` (OpenID Connect Front-Channel Logout 1.0), to register with
    /// `frontchannel_logout_session_required: true`.
    public func frontChannelLogoutURL(for provider: String) -> URL {
        URL(string: publicURL.absoluteString.trimmingSuffix("/") + "/\(pathPrefix)/\(provider)/frontchannel-logout")!
    }

    /// `provider`'s `initiate_login_uri` (OpenID Connect Core 1.0 §4, third-party-initiated login).
    public func initiateLoginURL(for provider: String) -> URL {
        URL(string: publicURL.absoluteString.trimmingSuffix("/") + "/\(pathPrefix)/\(provider)/initiate-login")!
    }
}
