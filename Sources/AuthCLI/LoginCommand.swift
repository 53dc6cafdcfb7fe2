import ArgumentParser
import AuthDeviceFlow
import AuthLoopback
import AuthProviders
import AuthTokenExchange
import CommandLineOutput
import Foundation

/// `auth-cli login`: sign in and store the session.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with a registered provider or any OpenID Connect issuer, and store the session.",
        discussion: """
            auth-cli login --provider oidc --config oidc.json
            auth-cli login --issuer https://id.example.com --client-id cli \\
                           --redirect-uri http://127.0.0.1:53682/callback --browser print
            auth-cli login --provider oidc --config oidc.json --device   # approve on a phone (RFC 8628)
            auth-cli login --issuer https://id.example.com --register    # register a client first (RFC 7591)
            auth-cli login --account-hint acct:alice@example.com --register   # the issuer from WebFinger
            AUTH_CLI_INITIAL_ACCESS_TOKEN=… auth-cli login --issuer https://id.example.com --register   # closed registration
            No account anywhere? `auth-emulator emulate oidc --config-dir /tmp/emu` serves an emulator and writes \
            /tmp/emu/oidc.json for --config.
            """
    )

    @Option(help: "A registered provider id (see `auth-cli providers`).")
    var provider: String?

    @Option(help: "The provider's configuration: a JSON or property-list file with a dictionary.")
    var config: String?

    @Option(help: "An OpenID Connect issuer URL (uses the `oidc` provider).")
    var issuer: String?

    @Option(help: "The client id registered at the issuer.")
    var clientID: String?

    @Option(help: "A client secret (confidential clients only). Visible to other users in the process list: prefer --client-secret-file or AUTH_CLI_CLIENT_SECRET.")
    var clientSecret: String?

    @Option(help: "A file whose first line is the client secret (confidential clients only).")
    var clientSecretFile: String?

    @Option(help: "The redirect URI: http://127.0.0.1[:port]/path; without a port an ephemeral one is used.")
    var redirectURI: String?

    @Option(help: "Space-separated scopes.")
    var scope: String = "openid email profile"

    @Option(name: .customLong("param"), help: "An extra authorization parameter, key=value (repeatable).")
    var parameters: [KeyValue] = []

    @Option(help: "A login hint (e-mail or phone) to pre-fill the login page.")
    var loginHint: String?

    @Option(help: "A prompt value: login, consent, select_account, none (repeatable).")
    var prompt: [String] = []

    @Option(help: "How to show the authorization page: system (open the browser) or print (print the URL).")
    var browser: BrowserChoice?

    @Option(
        help:
            "How the provider answers: query (a redirect with the answer in the URL) or form_post (a form POST to the listener; refused before the browser opens when the provider's discovery document lists response modes without it)."
    )
    var responseMode: ResponseModeChoice?

    @Flag(
        help:
            "Register a new client with the issuer first (RFC 7591: native, PKCE, the loopback redirect URI), kept with the session (`auth-cli registration show|update` read and change it). An issuer with closed registration takes its initial access token from AUTH_CLI_INITIAL_ACCESS_TOKEN."
    )
    var register = false

    @Option(help: "With --register, find the issuer of this account by WebFinger (acct:user@host, RFC 7033).")
    var accountHint: String?

    @Option(help: "With --register, how the new client authenticates: none (a public client), client_secret_basic or client_secret_post.")
    var registerAuthMethod = RegistrationAuthMethod.none

    @Option(help: "With --register, a contact e-mail address for the new client (repeatable; some providers require one).")
    var registrationContact: [String] = []

    @Option(
        help:
            "The client's private key for encrypted ID tokens and user info: a PEM file (RSA or P-256) or a private JWK in a JSON file. With --register its public half is registered (jwks)."
    )
    var decryptionKey: String?

    @Option(
        help:
            "ID tokens are encrypted: ALG[/ENC], e.g. RSA-OAEP/A256GCM, ECDH-ES/A128GCM, A128KW (key from the client secret); ENC defaults to A128CBC-HS256. Registered with --register."
    )
    var idTokenEncryption: String?

    @Option(help: "User info answers are encrypted: ALG[/ENC], as --id-token-encryption. Registered with --register.")
    var userinfoEncryption: String?

    @Option(help: "User info answers are JWTs signed by the issuer with ALG (RS256, ES256, …), verified like ID tokens. Registered with --register.")
    var userinfoSigning: String?

    @Flag(help: "Sign in on another device (RFC 8628): show a code and a URL instead of opening a browser. The default when no browser can be opened and the provider supports it.")
    var device = false

    @Option(help: "Seconds to wait for the browser's redirect.")
    var timeout: Int = 300

    @Option(help: "Seconds one request to the provider may take, body included.")
    var requestTimeout: Int = 30

    @Option(help: "max_age: the longest time in seconds since the user last logged in (checked against auth_time).")
    var maxAge: Int?

    @Flag(help: "Sign in with the app family's shared sign-in (OpenID Connect Native SSO, a token exchange): no browser. Needs --family.")
    var nativeSSO = false

    @OptionGroup var family: FamilyOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let output = Output(options: output)
        try await output.reportingErrors {
            let setup = register || accountHint != nil ? try await registeredSetupValue() : try resolve()
            let logger = TerminalLogger(minimum: self.output.verbose ? .trace : .warning)
            let provider = try ProviderRegistry.builtIn.provider(named: setup.providerID.rawValue, configuration: setup.configuration)
            // The keyring unless a file was asked for; without a Secret Service, a refusal before anything is written.
            let storage: any TokenStorage
            let location: String
            var keyring: KeyringSessions?
            switch try store.location {
            case .file(let url):
                storage = CLIStore(url: url, provider: setup.providerID, configuration: setup.configuration)
                location = url.path
            case .keyring:
                let sessions = KeyringSessions()
                try await sessions.requireAvailable()
                let profile = KeyringSessions.Profile(provider: setup.providerID, configuration: setup.configuration.values)
                storage = KeyringSessionStore(sessions, signingInWith: profile)
                location = "secret-service"
                keyring = sessions
            }
            guard requestTimeout > 0 else { throw ValidationError("--request-timeout must be at least 1 second.") }
            var clientOptions = AuthClient.Options()
            clientOptions.requestTimeout = .seconds(requestTimeout)
            let client = AuthClient(
                provider: provider,
                storage: storage,
                transport: try CLITransport.shared(for: setup.configuration),
                logger: logger,
                options: clientOptions
            )
            var options = SignInOptions(loginHint: loginHint, prompt: prompt, maxAge: maxAge)
            let session: Session
            if let responseMode {
                guard !device else { throw ValidationError("--response-mode is for a browser sign-in; leave it out with --device.") }
                try await Self.requireSupported(responseMode, by: client)
                options.additionalParameters["response_mode"] = responseMode.rawValue
            }
            if let family = try family.value {
                if nativeSSO {
                    guard browser == nil, !device else { throw ValidationError("--native-sso signs in without a browser; leave out --browser and --device.") }
                    session = try await family.signIn(with: client)
                    try await keyring?.setActive(await session.credential.storageKey)
                    var object = await output.describe(session)
                    object["store"] = .string(location)
                    object["native_sso"] = true
                    output.emit(object, human: ["signed in with the app family's sign-in (no browser)"] + (await output.humanLines(session)))
                    return
                }
                // Native SSO §3.1: the first app asks for a device secret.
                options.additionalScopes.append(NativeSSOFamily.scope)
            } else if nativeSSO {
                throw ValidationError("--native-sso needs --family and --family-store.")
            }
            if try await usesDeviceFlow(client) {
                session = try await DeviceSignIn.run(client)
                try await keyring?.setActive(await session.credential.storageKey)
                var object = await output.describe(session)
                object["store"] = .string(location)
                output.emit(object, human: ["signed in on this device"] + (await output.humanLines(session)))
                return
            }
            session = try await client.signInWithLoopback(
                browser: browser == .print ? .print : .system,
                timeout: .seconds(timeout),
                options: options
            )
            try await keyring?.setActive(await session.credential.storageKey)
            var object = await output.describe(session)
            object["store"] = .string(location)
            var human = ["signed in"] + (await output.humanLines(session)) + ["stored     \(location)"]
            if let family = try family.value {
                let shared = try await family.share(session)
                object["native_sso_shared"] = .bool(shared)
                human.append(shared ? "shared     with the app family \(family.name)" : "note       the provider issued no device secret: nothing shared with the family")
            }
            output.emit(object, human: human)
        }
    }

    /// `--device`, or no browser to open (no `--browser`, no display) with a provider that offers the device flow.
    private func usesDeviceFlow(_ client: AuthClient) async throws -> Bool {
        if device {
            guard browser == nil else { throw ValidationError("--device signs in without a browser; leave out --browser.") }
            return true
        }
        guard browser == nil, !Self.browserAvailable else { return false }
        return (try? await client.metadata().deviceAuthorizationEndpoint) != nil
    }

    /// Refuses `mode` when the provider's discovery document lists the response modes it supports without it.
    private static func requireSupported(_ mode: ResponseModeChoice, by client: AuthClient) async throws {
        guard case .array(let listed)? = try await client.metadata().document["response_modes_supported"] else { return }
        let modes = listed.compactMap(\.stringValue)
        guard modes.contains(mode.rawValue) else {
            throw AuthError(
                .invalidConfiguration,
                "The provider supports the response modes \(modes.joined(separator: ", ")), not \(mode.rawValue); leave out --response-mode or choose one of those.",
                configurationKey: "--response-mode"
            )
        }
    }

    /// Whether a system browser can plausibly be opened: always on macOS; on Linux with a display or `$BROWSER`.
    private static var browserAvailable: Bool {
        #if os(macOS)
            return true
        #else
            let environment = ProcessInfo.processInfo.environment
            return ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"].contains { !(environment[$0] ?? "").isEmpty }
        #endif
    }

    private func registeredSetupValue() async throws -> Setup {
        guard register else { throw ValidationError("--account-hint finds an issuer to register with: add --register.") }
        let (providerID, configuration) = try await registeredSetup()
        return Setup(providerID: providerID, configuration: configuration)
    }

    private struct Setup {
        let providerID: ProviderID
        let configuration: ProviderConfiguration
    }

    /// The client secret from `--client-secret`, `--client-secret-file` or `AUTH_CLI_CLIENT_SECRET` (at most one).
    private func resolveClientSecret() throws -> String? {
        let environment = ProcessInfo.processInfo.environment["AUTH_CLI_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        let given = [clientSecret != nil, clientSecretFile != nil, environment != nil].filter { $0 }.count
        guard given <= 1 else {
            throw ValidationError("Give the client secret one way only: --client-secret, --client-secret-file or AUTH_CLI_CLIENT_SECRET.")
        }
        if let clientSecretFile {
            let path = (clientSecretFile as NSString).expandingTildeInPath
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("Cannot read the client secret file \(path).")
            }
            guard let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
                throw ValidationError("The client secret file \(path) is empty.")
            }
            return String(line)
        }
        return clientSecret ?? environment
    }

    private func resolve() throws -> Setup {
        if let issuer {
            guard provider == nil || provider == "oidc", config == nil else {
                throw ValidationError("Use either --issuer … or --provider/--config, not both.")
            }
            // A device sign-in has no redirect; the provider configuration still names one, never used.
            guard let clientID, let redirectURI = redirectURI ?? (device ? "http://127.0.0.1/callback" : nil) else {
                throw ValidationError("--issuer needs --client-id and --redirect-uri (or --device).")
            }
            var values: [String: JSONValue] = [
                "issuer": .string(issuer), "client_id": .string(clientID), "redirect_uri": .string(redirectURI),
                "scope": .string(scope)
            ]
            if let secret = try resolveClientSecret() { values["client_secret"] = .string(secret) }
            values.merge(try responseProtectionValues()) { _, given in given }
            if !parameters.isEmpty {
                values["parameters"] = .object(Dictionary(parameters.map { ($0.key, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last }))
            }
            return Setup(providerID: "oidc", configuration: ProviderConfiguration(values))
        }
        guard provider != nil || config != nil else {
            throw ValidationError(
                "Say whom to sign in with: --issuer URL --client-id ID (any OpenID Connect issuer), or --provider NAME --config FILE. To try it locally, `auth-emulator emulate oidc --config-dir /tmp/emu` writes /tmp/emu/oidc.json."
            )
        }
        let providerID = ProviderID(rawValue: provider ?? "oidc")
        let registry = ProviderRegistry.builtIn
        guard registry.contains(providerID.rawValue) else {
            let known = registry.providerIDs.map(\.rawValue).joined(separator: ", ")
            throw AuthError(.unknownProvider, "No provider is registered as '\(providerID)'. Known providers: \(known).")
        }
        guard let config else {
            throw AuthError(.invalidConfiguration, "'\(providerID)' needs its settings: pass --config FILE (a JSON or property-list dictionary).", configurationKey: "--config")
        }
        let url = URL(fileURLWithPath: (config as NSString).expandingTildeInPath)
        // Relative TLS file paths are the configuration file's; the stored configuration keeps them absolute.
        let configuration = MutualTLSFiles.resolvingPaths(in: try ProviderConfiguration(contentsOf: url), against: url.deletingLastPathComponent())
        return Setup(providerID: providerID, configuration: configuration)
    }
}
