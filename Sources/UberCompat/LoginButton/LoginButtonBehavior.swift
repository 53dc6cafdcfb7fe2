import AuthCore
import AuthUber

/// What a ``LoginButton`` does when tapped, apart from drawing itself: log in through ``UberAuth`` with the data
/// source's context, or log out; report to the delegate. Platform-neutral, so the UIKit button and the plain one
/// share it and it is tested on Linux.
@MainActor
final class LoginButtonBehavior {
    weak var dataSource: (any LoginButtonDataSource)?
    weak var delegate: (any LoginButtonDelegate)?
    var uberAuth: UberAuth?
    private(set) var isLoggedIn = false
    /// Whether a logout runs (taps are ignored meanwhile). A login never makes the button busy: the vendor's button has
    /// no busy state, so a user who left the Uber app without answering taps again at once, and the new login replaces
    /// the waiting one.
    private(set) var isBusy = false
    /// The title the vendor's button shows in this state (one place for the UIKit button and the neutral one).
    var title: String { isLoggedIn ? "Sign out" : "Sign in with Uber" }
    /// Called when ``isLoggedIn`` or ``isBusy`` changes (the UIKit button retitles and disables itself).
    var onChange: (() -> Void)?

    /// Reads whether a session is stored (a relaunch shows "Sign out" for a logged-in user).
    func refresh() async {
        guard let uberAuth else { return }
        isLoggedIn = await uberAuth.isLoggedIn
        onChange?()
    }

    /// One tap: logs out when logged in, else logs in.
    func tap(_ button: LoginButton) async {
        guard let uberAuth, !isBusy else { return }
        if isLoggedIn {
            isBusy = true
            onChange?()
            defer {
                isBusy = false
                onChange?()
            }
            let success: Bool
            do {
                try await uberAuth.logout()
                success = true
            } catch {
                success = false
            }
            isLoggedIn = !success
            delegate?.loginButton(button, didLogoutWithSuccess: success)
            return
        }
        let context = dataSource?.authContext(button) ?? AuthContext()
        do {
            let client = try await uberAuth.login(context: context)
            // A code-only login stores nothing: the user is not logged in on this device.
            isLoggedIn = client.accessToken != nil
            onChange?()
            delegate?.loginButton(button, didCompleteLoginWithResult: .success(client))
        } catch let error as AuthError where error.code == .signInSuperseded {
            // A later tap replaced this login; the delegate hears that one's outcome (the vendor's button replaced
            // its pending completion the same way).
            return
        } catch let error as AuthError {
            delegate?.loginButton(button, didCompleteLoginWithResult: .failure(error.uberAuthError))
        } catch {
            delegate?.loginButton(button, didCompleteLoginWithResult: .failure(.other(error)))
        }
    }
}
