import AuthCore
import AuthSchibsted

/// Told when a user is logged out (the vendor's `UserDelegate`): by ``SchibstedUser/logout()`` or forced, when the
/// server rejected the refresh token.
public protocol UserDelegate: AnyObject, Sendable {
    /// The user was logged out.
    func userDidLogout() async
}

/// A user's logout delegates (the vendor's `user.delegates`), held weakly as the vendor does: keep a reference.
///
/// ```swift
/// await user.delegates.addDelegate(myDelegate)
/// ```
public actor UserDelegates {
    private struct Entry {
        weak var delegate: (any UserDelegate)?
    }

    private let session: Session
    private var entries: [Entry] = []
    private var listener: Task<Void, Never>?

    init(session: Session) {
        self.session = session
    }

    /// Adds `delegate`. From when this returns, a logout of this account — from any `SchibstedUser` value or
    /// process-wide refresh — reaches it.
    public func addDelegate(_ delegate: any UserDelegate) async {
        entries.removeAll { $0.delegate == nil || $0.delegate === delegate }
        entries.append(Entry(delegate: delegate))
        guard listener == nil else { return }
        // Subscribed before returning, so a logout right after addDelegate is not missed.
        let events = await session.events()
        listener = Task { [weak self] in
            for await event in events {
                guard case .signedOut = event.kind else { continue }
                guard let self else { return }
                await self.notifyLogout()
            }
        }
    }

    /// Removes `delegate`.
    public func removeDelegate(_ delegate: any UserDelegate) {
        entries.removeAll { $0.delegate == nil || $0.delegate === delegate }
    }

    private func notifyLogout() async {
        for delegate in entries.compactMap(\.delegate) {
            await delegate.userDidLogout()
        }
    }

    deinit {
        listener?.cancel()
    }
}
