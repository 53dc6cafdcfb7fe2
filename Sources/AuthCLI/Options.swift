import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// Where the session lives: the Secret Service by default, a file only when asked (`--store FILE`,
/// `--insecure-storage`).
struct StoreOptions: ParsableArguments {
    @Option(help: "Keep the session in this file (plaintext JSON, mode 0600) instead of the system keyring.")
    var store: String?

    @Flag(help: "Keep the session in ~/.config/auth-cli/session.json (plaintext JSON, mode 0600) instead of the system keyring.")
    var insecureStorage = false

    /// Where a session is kept.
    enum Location {
        /// The Secret Service (GNOME Keyring, KWallet, KeePassXC).
        case keyring
        /// A session file.
        case file(URL)
    }

    /// The location the flags choose.
    var location: Location {
        get throws {
            if let store {
                guard !insecureStorage else { throw ValidationError("Give either --store FILE or --insecure-storage, not both.") }
                return .file(URL(fileURLWithPath: (store as NSString).expandingTildeInPath))
            }
            return insecureStorage ? .file(Self.defaultFile) : .keyring
        }
    }

    /// The file `--insecure-storage` uses (and earlier auth-cli versions used by default), under `$HOME` (Foundation's
    /// home directory on Linux is the password database's, whatever `HOME` says).
    static var defaultFile: URL {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        return (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".config/auth-cli/session.json")
    }
}

/// `--issuer`/`--hostname` and `--account`: which stored account a command acts on (the active one by default).
struct AccountOptions: ParsableArguments {
    @Option(name: [.customLong("issuer"), .customLong("hostname")], help: "Only accounts of this issuer (its URL, or its host name).")
    var issuer: String?

    @Option(help: "Only this account (its subject).")
    var account: String?

    /// Whether `key` passes the filters.
    func matches(_ key: StorageKey) -> Bool {
        if let account, key.account != account { return false }
        guard let issuer else { return true }
        let wanted = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let stored = key.issuer.hasSuffix("/") ? String(key.issuer.dropLast()) : key.issuer
        return stored == wanted || URL(string: key.issuer)?.host?.lowercased() == issuer.lowercased()
    }

    /// The account to act on: the active one when it passes the filters, else the only one that does.
    ///
    /// - Throws: `not_signed_in` when none passes, or when no filter is given and the active account is gone; a usage
    ///   error when several pass and the active one is not among them.
    func choose(from keys: [StorageKey], active: StorageKey?) throws -> StorageKey {
        let matching = keys.filter(matches)
        if let active, matching.contains(active) { return active }
        // Never another account in its place: a script that ran as one user must not go on as another.
        if let active, issuer == nil, account == nil { throw gone(active) }
        if matching.count == 1 { return matching[0] }
        if matching.isEmpty {
            let filtered = issuer != nil || account != nil
            throw AuthError(
                .notSignedIn,
                filtered ? "No stored account matches \(describe); see `auth-cli status`." : "No account is signed in; run `auth-cli login`."
            )
        }
        throw ValidationError(
            "\(matching.count) stored accounts match\(issuer != nil || account != nil ? " " + describe : "") and none is active: name one with --account SUBJECT (and --issuer), or run `auth-cli switch`."
        )
    }

    /// The refusal when the active account is no longer stored.
    func gone(_ active: StorageKey) -> AuthError {
        AuthError(
            .notSignedIn,
            "The active account (\(active.account) at \(active.issuer)) is no longer stored: it was logged out or its session revoked. `auth-cli status` lists the others; `auth-cli switch` makes one active."
        )
    }

    private var describe: String {
        [issuer.map { "issuer \($0)" }, account.map { "account \($0)" }].compactMap { $0 }.joined(separator: ", ")
    }
}

/// Where the authorization page is shown.
enum BrowserChoice: String, ExpressibleByArgument, CaseIterable {
    /// Open the system browser and listen on the loopback redirect.
    case system
    /// Print the URL on a line of its own and listen on the loopback redirect.
    case print
}

/// How the provider is asked to answer the authorization request (`response_mode`).
enum ResponseModeChoice: String, ExpressibleByArgument, CaseIterable {
    /// The answer in the redirect's query (the code flow's default).
    case query
    /// A form POST to the loopback listener (OAuth 2.0 Form Post Response Mode).
    case formPost = "form_post"
}

/// A `key=value` argument.
struct KeyValue: ExpressibleByArgument {
    let key: String
    let value: String

    init?(argument: String) {
        guard let separator = argument.firstIndex(of: "="), separator != argument.startIndex else { return nil }
        key = String(argument[..<separator])
        value = String(argument[argument.index(after: separator)...])
    }
}
