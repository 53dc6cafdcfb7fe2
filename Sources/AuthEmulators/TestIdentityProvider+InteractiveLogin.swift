import AuthCore
public import AuthTesting
import Foundation

/// The HTTP emulators' login page, test accounts and faults, put in front of the identity provider as its front desk
/// (`EmulatorFrontDesk`); AuthTesting's provider itself approves every valid authorization request at once.
extension TestIdentityProvider {
    /// Someone who can sign in on the login page of an HTTP emulator.
    public struct TestAccount: Sendable {
        /// What to type as the username (usually an e-mail address).
        public var username: String
        /// What to type as the password (test-only; it protects nothing).
        public var password: String
        /// Who the tokens are then issued for.
        public var user: User

        /// Creates an account.
        public init(username: String, password: String = TestIdentityProvider.testPassword, user: User) {
            self.username = username
            self.password = password
            self.user = user
        }
    }

    /// A failure an app developer asks the emulator for, to rehearse it: each is spent on the next response it
    /// applies to (`POST /_emulator/faults` with `next=<raw value>`, or ``queueFault(_:)``).
    public enum EmulatorFault: String, Sendable, CaseIterable {
        /// The next request (any endpoint but the emulator's own) is answered HTTP 500 `server_error`.
        case serverError = "server_error"
        /// The next request is answered after a 3-second delay.
        case slow
        /// The next ID token issued has already expired (`exp` an hour ago).
        case expiredIDToken = "expired_token"
        /// The next ID token issued carries another `nonce` than the one requested.
        case wrongNonce = "wrong_nonce"
        /// The next successful token response says its access token expires in one second (`expires_in: 1`), so the
        /// client refreshes on its next use: a way to rehearse refreshes, concurrent ones included.
        case shortLivedAccessToken = "short_lived_token"
    }

    /// Where the emulator's own endpoints live, under the endpoint base: the login form posts to `login`, faults
    /// are queued at `faults`.
    public static let emulatorPathPrefix = "/_emulator/"
    /// The password of every built-in test account. TEST ONLY.
    public static let testPassword = "emulator-password"

    /// Who can sign in on the login page: the configured accounts, or one for the configured user (username: its
    /// `email` claim, else `user`; password ``testPassword``).
    public nonisolated var loginAccounts: [TestAccount] {
        if !configuration.testAccounts.isEmpty { return configuration.testAccounts }
        let user = configuration.user
        return [TestAccount(username: user.claims["email"]?.stringValue ?? "user", user: user)]
    }

    /// Queues `fault` for the next response it applies to.
    public func queueFault(_ fault: EmulatorFault) {
        emulatorFrontDesk.queue(fault)
    }

    /// Answers valid authorization requests with the login page from now on, or (`shown` false) approves them at once
    /// again: what `auth-emulator emulate` switches on for an emulator whose configuration was not
    /// ``Configuration/served(at:)`` (govuk-service).
    public func showLoginPage(_ shown: Bool = true) {
        emulatorFrontDesk.showsLoginPage = shown
    }

    /// This provider's front desk: the one it opened from its configuration, or one installed now, so that a provider
    /// built without the emulator's settings (in process) still takes faults and can show the login page.
    var emulatorFrontDesk: EmulatorFrontDesk {
        if let installed = frontDesk as? EmulatorFrontDesk { return installed }
        let opened = EmulatorFrontDesk(showsLoginPage: configuration.showsLoginPage)
        frontDesk = opened
        return opened
    }
}

/// The login page's settings, kept in the configuration's front desk settings (`EmulatorFrontDesk.Settings`).
extension TestIdentityProvider.Configuration {
    /// The name the login page shows (`Grab`, `Schibsted account`, …).
    public var displayName: String {
        get { emulatorSettings.displayName }
        set { emulatorSettings.displayName = newValue }
    }

    /// Who can sign in on the login page; empty means one account for `user` (see
    /// ``TestIdentityProvider/loginAccounts``).
    public var testAccounts: [TestIdentityProvider.TestAccount] {
        get { emulatorSettings.testAccounts }
        set { emulatorSettings.testAccounts = newValue }
    }

    /// Whether a valid authorization request is answered with an HTML login page (username, password, "Sign in" and
    /// "Deny") instead of an immediate redirect: what the HTTP emulators serve to people and browsers
    /// (``served(at:)`` switches it on; ``TestIdentityProvider/showLoginPage(_:)`` later).
    public var showsLoginPage: Bool {
        get { emulatorSettings.showsLoginPage }
        set { emulatorSettings.showsLoginPage = newValue }
    }

    /// The emulator's settings in `frontDeskSettings` (the defaults while it holds none).
    var emulatorSettings: EmulatorFrontDesk.Settings {
        get { frontDeskSettings as? EmulatorFrontDesk.Settings ?? EmulatorFrontDesk.Settings() }
        set { frontDeskSettings = newValue }
    }
}
