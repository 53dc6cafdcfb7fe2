// Compiled on Apple platforms only (UIKit). The vendor-style login button: a data source supplies the sign-in
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

/// A button that signs in, then signs out on the next tap.
@MainActor
public final class LoginButton: UIButton {
    /// Supplies the client and user agent.
    public weak var dataSource: (any LoginButtonDataSource)?
    /// Receives results.
    public weak var delegate: (any LoginButtonDelegate)?
    /// The signed-in session, if any.
    public private(set) var session: Session?

    /// Creates the button.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        addAction(UIAction { [weak self] _ in self?.tapped() }, for: .touchUpInside)
        setTitle("Sign in", for: .normal)
    }

    /// Creates the button from a storyboard.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addAction(UIAction { [weak self] _ in self?.tapped() }, for: .touchUpInside)
    }

    private func tapped() {
        Task { @MainActor in
            if let session {
                _ = try? await session.signOut()
                self.session = nil
                setTitle("Sign in", for: .normal)
                delegate?.loginButtonDidLogout(self)
                return
            }
            guard let dataSource else { return }
            isEnabled = false
            defer { isEnabled = true }
            do {
                let signedIn = try await dataSource.authClient(for: self).signIn(with: dataSource.userAgent(for: self), options: dataSource.signInOptions(for: self))
                session = signedIn
                setTitle("Sign out", for: .normal)
                delegate?.loginButton(self, didCompleteWith: .success(signedIn))
            } catch let error as AuthError {
                delegate?.loginButton(self, didCompleteWith: .failure(error))
            } catch {
                delegate?.loginButton(self, didCompleteWith: .failure(AuthError(.authorizationFailed, "Sign-in failed.", underlying: error)))
            }
        }
    }
}
#endif
