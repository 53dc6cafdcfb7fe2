// Built on Apple platforms (UIKit / AppKit); type-checked on Linux against Shims/ by Scripts/ci/apple-typecheck.sh.
// The host's answers to "can this app be opened" and "open this link", which the providers' pure route decisions
// (Grab, Uber) consume.
#if canImport(UIKit) && !os(watchOS)
    import AuthCore
    public import Foundation
    import UIKit

    /// Opens native apps through `UIApplication`. Schemes checked with `canOpen(_:)` must be listed in
    /// `LSApplicationQueriesSchemes` (`swift package check-auth-config` verifies it).
    public struct SystemAppHandoff: AppHandoff {
        /// Open `https` links only when an app claims them (universal links), never in Safari. Default `false`, as the
        /// Uber SDK opened them: a universal link no app claims opens in Safari, whose login page redirects back.
        public let universalLinksOnly: Bool

        /// Creates a hand-off.
        public init(universalLinksOnly: Bool = false) {
            self.universalLinksOnly = universalLinksOnly
        }

        /// `UIApplication.canOpenURL`.
        public func canOpen(_ url: URL) async -> Bool {
            await UIApplication.shared.canOpenURL(url)
        }

        /// Opens `url`; `false` when no app took it.
        public func open(_ url: URL) async -> Bool {
            let options: [UIApplication.OpenExternalURLOptionsKey: Any] =
                url.scheme == "https" && universalLinksOnly ? [.universalLinksOnly: true] : [:]
            return await UIApplication.shared.open(url, options: options)
        }
    }
#elseif canImport(AppKit)
    import AuthCore
    public import Foundation
    import AppKit

    /// Opens native apps through `NSWorkspace`.
    public struct SystemAppHandoff: AppHandoff {
        /// Creates a hand-off.
        public init() {}

        /// Whether an application handles the URL's scheme.
        public func canOpen(_ url: URL) async -> Bool {
            NSWorkspace.shared.urlForApplication(toOpen: url) != nil
        }

        /// Opens `url` in the application that handles it.
        public func open(_ url: URL) async -> Bool {
            NSWorkspace.shared.open(url)
        }
    }
#endif
