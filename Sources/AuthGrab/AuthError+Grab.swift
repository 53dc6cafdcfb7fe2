public import AuthCore

extension AuthError.Code {
    /// Grab: the app is not installed; the App Store was opened (`launchAppStoreLink`). Retry after install or cancel.
    public static let grabAppStoreLaunched: Self = "grab_app_store_launched"
    /// Grab: the App Store could not be opened (`failedTolaunchAppStoreLink`).
    public static let grabAppStoreLaunchFailed: Self = "grab_app_store_launch_failed"
    /// Grab: the client public info (`custom_protocols`) does not decode (`invalidCustomProtocolUrl`).
    public static let grabCustomProtocolInvalid: Self = "grab_custom_protocol_invalid"
}
