import ArgumentParser
import AuthCore
import AuthEmulators
import AuthTesting
import CommandLineOutput
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `auth-emulator emulate`: serves providers' emulators on 127.0.0.1 over HTTP — the same implementation the tests use in
/// process, behind an HTTP front — with a login page for people and browsers, and writes a configuration per
/// emulator that `auth-cli login --config` (or an app) signs in with.
struct EmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve providers' emulators on 127.0.0.1 over HTTP and write a configuration that signs in against each.",
        discussion: """
            auth-emulator emulate grab --port 8780 --config-dir /tmp/emulators
            auth-cli login --provider grab --config /tmp/emulators/grab.json --browser system
            auth-emulator emulate all                         # every emulator, each on its own port

            Emulators: \(ProviderEmulator.servedEmulatorNames.joined(separator: ", ")). Each keeps its vendor's \
            quirks and strictness (Schibsted needs X-OIDC: v1 on token requests, GOV.UK a vtr, Uber's PAR, Grab's \
            acr_values and its own discovery document, …). govuk-service is GOV.UK One Login as a government web service \
            sees it (private_key_jwt, identity P2). Served by name only (not in all): \(ProviderEmulator.servedVariantNames.joined(separator: ", ")) \
            (pushed authorization requests required; the FAPI 2.0 Security Profile).

            The login page accepts the test accounts it lists (password \(TestIdentityProvider.testPassword)); "Deny" \
            answers access_denied. To rehearse a failure, queue one for the next response:
              curl -d next=expired_token <issuer>/_emulator/faults    (server_error, slow, expired_token, wrong_nonce, short_lived_token)
            To sign a user out at the provider and tell a client that registered --backchannel-logout-uri:
              curl -d username=<test account> <issuer>/_emulator/backchannel-logout
            To send Sign in with Apple's server-to-server notification to the URL given with --notification-uri:
              curl -d username=<test account> -d type=consent-revoked <issuer>/_emulator/apple-notification
            """
    )

    @Argument(help: "The emulator to serve, or all.")
    var emulator: String

    @Option(help: "The port on 127.0.0.1 (0: any free port, printed); with all, the first of consecutive ports.")
    var port: Int = 0

    @Option(help: "The host the issuer names (default 127.0.0.1; e.g. 10.0.2.2 for an Android emulator). The server listens on 127.0.0.1 only.")
    var issuerHost: String = "127.0.0.1"

    @Option(help: "Where to write the configuration files (default: a new private temporary directory).")
    var configDir: String?

    @Option(
        help: ArgumentHelp("A client's back-channel logout endpoint, as NAME=URL (repeatable): /_emulator/backchannel-logout POSTs a logout token there.", valueName: "name=url"))
    var backchannelLogoutURI: [String] = []

    @Option(
        help: ArgumentHelp(
            "An app's server-to-server notification endpoint, as apple=URL: /_emulator/apple-notification POSTs Apple's signed notification there.", valueName: "apple=url"))
    var notificationURI: [String] = []

    func run() async throws {
        let names = emulator == "all" ? ProviderEmulator.servedEmulatorNames : [emulator]
        guard names.allSatisfy({ ProviderEmulator.servedEmulatorNames.contains($0) || ProviderEmulator.servedVariantNames.contains($0) }) else {
            throw ValidationError("Unknown emulator '\(emulator)'; choose one of \(ProviderEmulator.servedEmulatorNames.joined(separator: ", ")) or all.")
        }
        guard (0...65535).contains(port), port == 0 || port + names.count - 1 <= 65535 else { throw ValidationError("--port must be 0…65535.") }
        guard !issuerHost.isEmpty, !issuerHost.contains(where: { "/?#@ ".contains($0) }) else {
            throw ValidationError("--issuer-host must be a host name or address, without scheme, port or path.")
        }
        var backChannel: [String: URL] = [:]
        for entry in backchannelLogoutURI {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, names.contains(parts[0]), let url = URL(string: parts[1]), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("--backchannel-logout-uri takes NAME=URL with a served emulator's name and an http(s) URL; got '\(entry)'.")
            }
            backChannel[parts[0]] = url
        }
        var notifications: [String: URL] = [:]
        for entry in notificationURI {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] == "apple", names.contains("apple"), let url = URL(string: parts[1]), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("--notification-uri takes apple=URL with an http(s) URL, with the apple emulator served; got '\(entry)'.")
            }
            notifications[parts[0]] = url
        }
        let directory: URL
        if let configDir {
            directory = URL(fileURLWithPath: (configDir as NSString).expandingTildeInPath)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } else {
            // mkdtemp: a new directory no one else can have made or linked in advance (a predictable name in a shared
            // /tmp could be another user's), created 0700.
            var template = Array((NSTemporaryDirectory() + "auth-emulator-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw ValidationError("A private temporary directory could not be created (errno \(errno)); pass --config-dir.")
            }
            directory = URL(fileURLWithPath: String(cString: made))
        }

        var channels: [any Channel] = []
        for (index, name) in names.enumerated() {
            let served = try await Self.serve(
                name, port: port == 0 ? 0 : port + index, issuerHost: issuerHost, backChannelLogoutURI: backChannel[name], notificationURI: notifications[name])
            channels.append(served.channel)
            let file = try Self.writeConfiguration(name, emulator: served.emulator, to: directory)
            // Written unbuffered: a script reading this through a pipe sees it at once.
            FileHandle.standardOutput.write(Data(Self.describe(name, served: served, configuration: file).utf8))
        }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        for channel in channels { try await channel.closeFuture.get() }
    }

    /// The emulator's request handler, in a struct: a bare function value kept in a `LockedValue` gets wrapped in two
    /// more reabstraction thunks by every `withLock` (its `inout` crosses the generic boundary), so each request
    /// made the next one slower — 2,700 answers per second when started, under 500 after twenty thousand requests.
    struct Route: Sendable {
        let answer: @Sendable (CapturedRequest) async -> (Data, HTTPResponse)
    }

    struct Served {
        let channel: any Channel
        let emulator: ProviderEmulator
        let origin: URL
        let accounts: [TestIdentityProvider.TestAccount]
    }

    /// Binds 127.0.0.1:`port`, then builds the emulator for the bound port (its issuer names the port).
    static func serve(_ name: String, port: Int, issuerHost: String, backChannelLogoutURI: URL? = nil, notificationURI: URL? = nil) async throws -> Served {
        let route = LockedValue<Route?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    let serve: @Sendable (CapturedRequest) async -> (Data, HTTPResponse) = { request in
                        guard let handler = route.withLock({ $0 }) else { return (Data(), .make(status: 503)) }
                        return await handler.answer(request)
                    }
                    try child.pipeline.syncOperations.addHandler(EmulatorHTTPHandler(serve: serve))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        let boundPort = channel.localAddress?.port ?? port
        let host = issuerHost.contains(":") && !issuerHost.hasPrefix("[") ? "[\(issuerHost)]" : issuerHost
        guard let origin = URL(string: "http://\(host):\(boundPort)"),
            let emulator = ProviderEmulator.served(name, at: origin) ?? ProviderEmulator.servedVariant(name, at: origin)
        else {
            try await channel.close()
            throw ValidationError("'\(issuerHost)' does not make a valid issuer URL.")
        }
        guard let idp = emulator.identityProvider else {
            try await channel.close()
            throw ValidationError("The \(name) emulator has no identity provider to serve.")
        }
        // People sign in on the login page (govuk-service's configuration predates it and is switched here).
        await idp.showLoginPage()
        let gate = EmulatorGate(
            origin: origin, port: boundPort, backChannelLogoutURI: backChannelLogoutURI,
            clientID: emulator.configuration.values["client_id"]?.stringValue ?? TestIdentityProvider.defaultClientID,
            notificationURI: notificationURI
        )
        route.withLock {
            $0 = Route { request in
                if let refused = gate.refusal(of: request) { return refused }
                if let answer = await gate.backChannelLogout(request, idp: idp) { return answer }
                if let answer = await gate.appleNotification(request, idp: idp) { return answer }
                // The request as the client addressed it (the issuer's origin, port included), not as the listener
                // resolved its path: a DPoP proof's `htu` names that URL (RFC 9449 §4.3).
                var addressed = request
                if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
                    (components.scheme, components.host, components.port) = (origin.scheme, origin.host, origin.port)
                    if let rebased = components.url { addressed.head.url = rebased }
                }
                return await emulator.handle(addressed)
            }
        }
        return Served(channel: channel, emulator: emulator, origin: origin, accounts: idp.loginAccounts)
    }

    /// Writes `<name>.json`: the emulator's configuration, with a test-only key file for govuk-service.
    static func writeConfiguration(_ name: String, emulator: ProviderEmulator, to directory: URL) throws -> URL {
        var values = emulator.configuration.values
        if let pem = values["private_key"]?.stringValue {
            let keyFile = directory.appendingPathComponent("\(name)-key.pem")
            try Data(pem.utf8).write(to: keyFile, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
            values["private_key"] = nil
            values["private_key_file"] = .string(keyFile.path)
            values["redirect_uri"] = .string(TestIdentityProvider.loopbackRedirectURI.absoluteString)
        }
        let file = directory.appendingPathComponent("\(name).json")
        try JSONValue.object(values).jsonData().write(to: file, options: .atomic)
        return file
    }

    static func describe(_ name: String, served: Served, configuration file: URL) -> String {
        let origin = served.origin.absoluteString
        let accounts = served.accounts.map { "\($0.username) / \($0.password) (subject \($0.user.subject))" }
        let written = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        let signIn =
            name == "govuk"
            ? "an app whose universal link is \(TestIdentityProvider.govUKRedirectURI.absoluteString) (auth-cli: use govuk-service)"
            : "auth-cli login --provider \(served.emulator.providerID) --config \(file.path) --browser system"
        return """
            \(name): \(served.emulator.providerID) emulator at \(origin)
              test accounts  \(accounts.joined(separator: "; "))
              faults         curl -d next=server_error \(origin)\(TestIdentityProvider.emulatorPathPrefix)faults
              configuration  \(file.path)
              \(written)
            sign in with:
              \(signIn)

            """
    }
}
