import AuthCore
public import Foundation

/// A device sign-in in progress (RFC 8628): what to show the user, and the device code the client polls with.
///
/// Show ``userCode`` and ``verificationURI`` (or ``verificationURIComplete``, which carries the code, as a link or a QR
/// code), then call ``AuthClient/completeDeviceAuthorization(_:onPoll:)``. The device code never leaves this value:
/// its `description` is redacted like every ``Secret``.
public struct DeviceAuthorization: Sendable, CustomStringConvertible {
    /// The code the user types on the verification page (provider text, sanitised for display).
    public let userCode: String
    /// Where the user goes to approve, on a phone or another computer.
    public let verificationURI: URL
    /// The verification URI with the user code in it, when the provider gives one (for a link or a QR code).
    public let verificationURIComplete: URL?
    /// When the device code expires; polling stops then with `device_code_expired`.
    public let expiresAt: Date
    /// The interval the provider asked for between polls (5 seconds when it named none); `slow_down` lengthens it.
    public let interval: Duration
    /// The scopes requested.
    public let scopes: [String]

    let deviceCode: Secret
    let metadata: ProviderMetadata
    let openIDRequested: Bool

    /// `DeviceAuthorization(user code …, verify at …)` — never the device code.
    public var description: String {
        "DeviceAuthorization(user code \(userCode), verify at \(verificationURI.absoluteString), expires \(expiresAt))"
    }
}

/// Where a device sign-in stands while ``AuthClient/completeDeviceAuthorization(_:onPoll:)`` polls.
public struct DevicePollStatus: Sendable {
    /// How many token requests were sent so far.
    public let polls: Int
    /// The interval before the next poll (after any `slow_down`).
    public let interval: Duration
    /// How long until the device code expires.
    public let remaining: TimeInterval
}
