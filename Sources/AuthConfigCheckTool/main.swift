// auth-config-check: checks an app's auth configuration (used by `swift package check-auth-config`).
//
//     auth-config-check [--info-plist Info.plist] [--config govuk=GOVUK.json ...]
import AuthConfigCheck
import AuthCore
import Foundation

var infoPlist: (file: String, values: ProviderConfiguration)?
var configurations: [AuthConfigChecker.ConfigurationFile] = []
var arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("auth-config-check: \(message)\n".utf8))
    exit(2)
}

func load(_ path: String) -> ProviderConfiguration {
    do {
        return try ProviderConfiguration(contentsOf: URL(fileURLWithPath: path))
    } catch let error as AuthError {
        fail(error.message)
    } catch {
        fail("\(error)")
    }
}

while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--info-plist":
        guard let path = arguments.first else { fail("--info-plist needs a file") }
        arguments.removeFirst()
        infoPlist = (path, load(path))
    case "--config":
        guard let pair = arguments.first, let separator = pair.firstIndex(of: "=") else { fail("--config needs provider=FILE") }
        arguments.removeFirst()
        let path = String(pair[pair.index(after: separator)...])
        configurations.append(.init(providerID: ProviderID(rawValue: String(pair[..<separator])), file: path, values: load(path)))
    case "--help", "-h":
        print("usage: auth-config-check [--info-plist Info.plist] [--config PROVIDER=FILE ...]")
        exit(0)
    default:
        fail("unknown argument '\(argument)'; see --help")
    }
}
guard infoPlist != nil || !configurations.isEmpty else { fail("nothing to check; pass --info-plist and/or --config provider=FILE") }

let findings = AuthConfigChecker().check(infoPlist: infoPlist, configurations: configurations)
findings.forEach { print($0) }
let errors = findings.filter { $0.severity == .error }.count
print("auth-config-check: \(errors) error(s), \(findings.count - errors) warning(s)")
exit(errors == 0 ? 0 : 1)
