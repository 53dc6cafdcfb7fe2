// The vendor's `LoginButton`: a UIButton on UIKit platforms, a plain object elsewhere (for AppKit apps that draw
// their own button, and for tests). Both delegate every decision to the platform-neutral LoginButtonBehavior.
#if canImport(UIKit) && !os(watchOS)
    public import UIKit

    /// Logs a user in through ``UberAuth`` and out on the next tap (the vendor's `LoginButton`).
    ///
    /// ```swift
    /// let button = LoginButton()
    /// button.uberAuth = uber
    /// button.dataSource = self   // authContext(_:) → AuthContext(…, prefill: …)
    /// button.delegate = self     // didCompleteLoginWithResult / didLogoutWithSuccess
    /// ```
    @MainActor
    public final class LoginButton: UIButton {
        private let behavior = LoginButtonBehavior()

        /// Supplies the context of each login.
        public weak var dataSource: (any LoginButtonDataSource)? {
            get { behavior.dataSource }
            set { behavior.dataSource = newValue }
        }
        /// Receives results.
        public weak var delegate: (any LoginButtonDelegate)? {
            get { behavior.delegate }
            set { behavior.delegate = newValue }
        }
        /// The login coordinator the button uses; setting it reads whether a user is logged in.
        public var uberAuth: UberAuth? {
            get { behavior.uberAuth }
            set {
                behavior.uberAuth = newValue
                Task { await behavior.refresh() }
            }
        }
        /// Whether a user is logged in (the button then logs out).
        public var isLoggedIn: Bool { behavior.isLoggedIn }

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
            behavior.onChange = { [weak self] in self?.update() }
            update()
        }

        private func update() {
            setTitle(behavior.title, for: .normal)
            isEnabled = !behavior.isBusy
        }

        private func tapped() {
            Task { await behavior.tap(self) }
        }
    }
#else
    /// Logs a user in through ``UberAuth`` and out on the next tap (the vendor's `LoginButton`), for platforms without
    /// UIKit: call ``tap()`` from your own control.
    @MainActor
    public final class LoginButton {
        private let behavior = LoginButtonBehavior()

        /// Creates the button.
        public init() {}

        /// Supplies the context of each login.
        public weak var dataSource: (any LoginButtonDataSource)? {
            get { behavior.dataSource }
            set { behavior.dataSource = newValue }
        }
        /// Receives results.
        public weak var delegate: (any LoginButtonDelegate)? {
            get { behavior.delegate }
            set { behavior.delegate = newValue }
        }
        /// The login coordinator the button uses; call ``refresh()`` after setting it.
        public var uberAuth: UberAuth? {
            get { behavior.uberAuth }
            set { behavior.uberAuth = newValue }
        }
        /// Whether a user is logged in (the next tap logs out).
        public var isLoggedIn: Bool { behavior.isLoggedIn }
        /// The title the vendor's button shows in this state.
        public var title: String { behavior.title }

        /// Reads whether a user is logged in.
        public func refresh() async { await behavior.refresh() }

        /// What a tap does: log in with the data source's context, or log out; the delegate hears the outcome.
        public func tap() async { await behavior.tap(self) }
    }
#endif
