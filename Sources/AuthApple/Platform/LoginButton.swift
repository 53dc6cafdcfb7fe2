// Built on Apple platforms (UIKit); type-checked on Linux against Shims/ by Scripts/ci/apple-typecheck.sh.
// The vendor-style login button: a data source supplies the sign-in
// request, a delegate receives the result and logout.
#if canImport(UIKit) && !os(watchOS)
    public import AuthCore
    public import UIKit

    /// Supplies what a `LoginButton` signs in with.
    @MainActor
    public protocol LoginButtonDataSource: AnyObject {
        /// The client (a provider chosen by name from a registry).
        func authClient(for button: LoginButton) -> AuthClient
        /// The user agent (usually a `WebAuthenticationSessionUserAgent`).
        func userAgent(for button: LoginButton) -> any UserAgent
        /// Per-login options; default none.
        func signInOptions(for button: LoginButton) -> SignInOptions
    }

    extension LoginButtonDataSource {
        /// No options.
        public func signInOptions(for button: LoginButton) -> SignInOptions { SignInOptions() }
    }

    /// Receives a `LoginButton`'s results.
    @MainActor
    public protocol LoginButtonDelegate: AnyObject {
        /// A sign-in finished.
        func loginButton(_ button: LoginButton, didCompleteWith result: Result<Session, AuthError>)
        /// The user signed out with the button.
        func loginButtonDidLogout(_ button: LoginButton)
    }

    /// A button that signs in, then signs out on the next tap. What a tap does is the neutral ``LoginToggle``; this
    /// class only draws it.
    @MainActor
    public final class LoginButton: UIButton {
        /// Supplies the client and user agent.
        public weak var dataSource: (any LoginButtonDataSource)?
        /// Receives results.
        public weak var delegate: (any LoginButtonDelegate)?
        private let toggle = LoginToggle()

        /// The signed-in session, if any.
        public var session: Session? { toggle.session }

        /// Creates the button.
        public override init(frame: CGRect) {
            super.init(frame: frame)
            setUp()
        }

        /// Creates the button from a storyboard.
        public required init?(coder: NSCoder) {
            super.init(coder: coder)
            setUp()
        }

        private func setUp() {
            addAction(UIAction { [weak self] _ in self?.tapped() }, for: .touchUpInside)
            setTitle(toggle.title, for: .normal)
        }

        private func tapped() {
            Task { @MainActor in
                isEnabled = false
                let outcome: LoginToggle.Outcome
                if let source = dataSource {
                    let client = source.authClient(for: self)
                    let agent = source.userAgent(for: self)
                    let options = source.signInOptions(for: self)
                    outcome = await toggle.tap { try await client.signIn(with: agent, options: options) }
                } else {
                    outcome = await toggle.tap(signIn: nil)
                }
                isEnabled = true
                setTitle(toggle.title, for: .normal)
                switch outcome {
                case .signedIn(let result): delegate?.loginButton(self, didCompleteWith: result)
                case .signedOut: delegate?.loginButtonDidLogout(self)
                case .ignored: break
                }
            }
        }
    }
#endif
