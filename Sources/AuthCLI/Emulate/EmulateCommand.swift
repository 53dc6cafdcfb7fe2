import ArgumentParser
import AuthCore
import AuthTesting
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `auth-cli emulate`: serves a provider's emulator on 127.0.0.1 over HTTP, so `auth-cli login --config` (or an app)
/// can sign in against it with a real browser hop.
struct EmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve a provider's emulator on 127.0.0.1 over HTTP and write a configuration that signs in against it.",
        discussion: """
            auth-cli emulate govuk-service --port 8780 --config-dir /tmp/govuk
            auth-cli login --provider govuk --config /tmp/govuk/govuk-service.json --browser print

            govuk-service is GOV.UK One Login as a government web service sees it (private_key_jwt, identity P2, \
            a core identity JWT signed with a DID-published key), answering like GOV.UK's own simulator.
            """
    )

    @Argument(help: "The emulator to serve: govuk-service.")
    var emulator: String

    @Option(help: "The port on 127.0.0.1 (0: any free port, printed).")
    var port: Int = 0

    @Option(help: "Where to write the configuration file and the test-only client key (default: a new temporary directory).")
    var configDir: String?

    func run() async throws {
        guard emulator == "govuk-service" else {
            throw ValidationError("Only govuk-service can be served over HTTP so far; the other emulators run in process (auth-cli demo).")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535.") }
        // The issuer names the port, so bind first and build the emulator once the port is known.
        let route = LockedValue<(@Sendable (CapturedRequest) async -> (Data, HTTPResponse))?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    let serve: @Sendable (CapturedRequest) async -> (Data, HTTPResponse) = { request in
                        guard let handler = route.withLock({ $0 }) else {
                            return (Data(), .make(status: 503))
                        }
                        return await handler(request)
                    }
                    try child.pipeline.syncOperations.addHandler(EmulatorHTTPHandler(serve: serve))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        let boundPort = channel.localAddress?.port ?? port
        let issuer = URL(string: "http://127.0.0.1:\(boundPort)/")!
        let idp = TestIdentityProvider.govUKService(issuer: issuer)
        route.withLock { $0 = { request in await idp.handle(request) } }

        let directory = URL(fileURLWithPath: configDir.map { ($0 as NSString).expandingTildeInPath }
            ?? NSTemporaryDirectory() + "auth-cli-emulate-\(ProcessInfo.processInfo.processIdentifier)")
        let files = try Self.writeConfiguration(issuer: issuer, to: directory)
        // Written unbuffered: a script reading this through a pipe sees it at once.
        FileHandle.standardOutput.write(Data("""
            GOV.UK One Login (service) emulator at \(issuer.absoluteString)
              discovery      \(issuer.absoluteString).well-known/openid-configuration
              client id      \(TestIdentityProvider.govUKServiceClientID) (private_key_jwt, RS256; the key is test-only)
              user           \(TestIdentityProvider.govUKServiceUser.subject) (identity P2: GEOFFREY HEARNSHAW, 1955-04-19)
              configuration  \(files.configuration.path)
            sign in with:
              auth-cli login --provider govuk --config \(files.configuration.path) --browser print

            """.utf8))
        try await channel.closeFuture.get()
    }

    /// Writes the test-only client key (mode 0600) and a `govuk` configuration that reads it from the file.
    static func writeConfiguration(issuer: URL, to directory: URL) throws -> (configuration: URL, key: URL) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keyFile = directory.appendingPathComponent("govuk-service-key.pem")
        try Data(GOVUKServiceKeys.clientKeyPEM.utf8).write(to: keyFile, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        var values = ProviderEmulator.govUKService(issuer: issuer).configuration.values
        values["private_key"] = nil
        values["private_key_file"] = .string(keyFile.path)
        values["redirect_uri"] = "http://127.0.0.1/callback"
        let configurationFile = directory.appendingPathComponent("govuk-service.json")
        try JSONValue.object(values).jsonData().write(to: configurationFile, options: .atomic)
        return (configurationFile, keyFile)
    }
}
