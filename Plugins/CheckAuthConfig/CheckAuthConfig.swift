import Foundation
import PackagePlugin

/// `swift package check-auth-config --info-plist App/Info.plist --config govuk=App/GOVUK.json`
///
/// Runs `auth-config-check` on an app's Info.plist and provider configuration files: required keys, redirect
/// schemes registered, hand-off schemes queried, `https` where required, no client secrets; warnings for risky
/// settings. Exits non-zero when there is an error.
@main
struct CheckAuthConfig: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "auth-config-check")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("auth-config-check found problems (exit \(process.terminationStatus))")
        }
    }
}
