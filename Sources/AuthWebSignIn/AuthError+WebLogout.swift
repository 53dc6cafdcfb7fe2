public import AuthCore

/// The codes of the logout profiles' refusals (RP-initiated, front-channel) and of third-party-initiated login.
extension AuthError.Code {
    /// The provider's redirect back after sign-out carries a `state` this browser did not send (another browser's,
    /// made up, or one already used), or comes to a browser with no sign-out in progress.
    public static let signOutStateMismatch: Self = "sign_out_state_mismatch"
    /// A front-channel logout request whose `iss` is not the provider's issuer.
    public static let frontChannelIssuerMismatch: Self = "front_channel_issuer_mismatch"
    /// A front-channel logout request without the `iss` and `sid` this app requires
    /// (`frontchannel_logout_session_required`).
    public static let frontChannelSessionRequired: Self = "front_channel_session_required"
    /// A third-party-initiated login whose `iss` is not the provider's issuer.
    public static let initiateLoginIssuerMismatch: Self = "initiate_login_issuer_mismatch"
    /// A third-party-initiated login whose `target_link_uri` is not on the app's own origin (an open redirect).
    public static let targetLinkOffSite: Self = "target_link_off_site"
}
