import ArgumentParser
import AuthLoopback
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli request URL`: one request to a resource with the stored session's token, and — with `--step-up` — a
/// resource's RFC 9470 step-up challenge met by a new sign-in in the browser.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request to a resource with the stored session's access token and print the answer.",
        discussion: """
            The token is refreshed first when it has expired, and once more on a 401. A resource that answers with a \
            step-up challenge (RFC 9470: 401, WWW-Authenticate: Bearer error="insufficient_user_authentication") \
            fails with step_up_required; with --step-up the user signs in again in the browser with the challenge's \
            acr_values and max_age, the stronger tokens are stored, and the request is sent once more (a second \
            challenge is step_up_loop). Exit status 1 for an answer of 400 or more.
            """
    )
    @Argument(help: "The resource's URL (https, or http on a loopback address).")
    var url: String
    @Option(help: "The request method.")
    var method = "GET"
    @Flag(help: "Meet a step-up challenge by signing in again in the browser, then retry the request once.")
    var stepUp = false
    @Option(help: "With --step-up: how to show the authorization page, system (open the browser) or print (print the URL).")
    var browser: BrowserChoice = .system
    @Option(help: "With --step-up: seconds to wait for the browser's redirect.")
    var timeout = 300
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        guard let target = URL(string: url), target.isSecureEndpoint else {
            throw ValidationError("The URL must be https, or http on a loopback address (127.0.0.1, [::1]).")
        }
        let request = HTTPRequest(method: HTTPRequest.Method(method.uppercased()) ?? .get, url: target)
        var status = 0
        try await StoredSession.run(store, selection, output) { stored, output in
            let data: Data
            let response: HTTPResponse
            if stepUp {
                let agent = try await LoopbackUserAgent.start(
                    redirectURI: stored.client.provider.client.redirectURI, browser: browser == .print ? .print : .system, timeout: .seconds(timeout)
                )
                defer { agent.close() }
                (data, response) = try await stored.session.send(request, steppingUpWith: agent, redirectURI: agent.redirectURI)
            } else {
                (data, response) = try await stored.session.send(request)
            }
            status = response.status.code
            let text = String(decoding: data, as: UTF8.self)
            let claims = await stored.session.idTokenClaims
            output.emit(
                [
                    "status": .number(Double(status)), "body": .string(text),
                    "acr": claims?.authenticationContextClass.map(JSONValue.string) ?? .null
                ],
                human: ["status     \(status)", text]
            )
        }
        if status >= 400 { throw ExitCode(1) }
    }
}
