import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// `--store FILE`, shared by the commands that use the stored session.
struct StoreOptions: ParsableArguments {
    @Option(help: "The session file (mode 0600). Default: ~/.config/auth-cli/session.json")
    var store: String?

    var url: URL {
        if let store { return URL(fileURLWithPath: (store as NSString).expandingTildeInPath) }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".config/auth-cli/session.json")
    }
}

/// Where the authorization page is shown.
enum BrowserChoice: String, ExpressibleByArgument, CaseIterable {
    /// Open the system browser and listen on the loopback redirect.
    case system
    /// Print the URL on a line of its own and listen on the loopback redirect.
    case print
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
