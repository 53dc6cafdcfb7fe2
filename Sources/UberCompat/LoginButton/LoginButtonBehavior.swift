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
        isBusy = true
        onChange?()
        defer {
            isBusy = false
            onChange?()
        }
        if isLoggedIn {
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
            delegate?.loginButton(button, didCompleteLoginWithResult: .success(client))
        } catch let error as AuthError {
            delegate?.loginButton(button, didCompleteLoginWithResult: .failure(error.uberAuthError))
        } catch {
            delegate?.loginButton(button, didCompleteLoginWithResult: .failure(.other))
        }
    }
}
