import ArgumentParser
import AuthDynamicRegistration
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli registration show|update`: the client `login --register` registered (RFC 7591), read back and changed
/// with its registration access token (RFC 7592), kept with the session.
struct RegistrationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Read or update the client `login --register` registered (RFC 7592), with its registration access token.",
        discussion: """
            auth-cli registration show                        # what the provider has registered now
            auth-cli registration update --contact ops@example.com --client-name "my tool"
            The answer is checked as a registration's is (client id, redirect URIs, authentication method, grant and \
            response types, PKCE): a provider that changed them is refused with its registration_* code and the kept \
            registration stays as it was. No secret is printed (the client secret and the registration access token \
            show as present or not).
            """,
        subcommands: [Show.self, Update.self]
    )

    /// `auth-cli registration show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Read the registration from the provider (RFC 7592 §2.1) and keep it.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var selection: AccountOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let output = Output(options: output)
            try await output.reportingErrors {
                let kept = try await KeptRegistration.open(store, selection)
                let registration = try await kept.registrar().read(kept.registration)
                try await kept.save(registration)
                output.emit(KeptRegistration.describe(registration), human: KeptRegistration.lines(registration))
            }
        }
    }

    /// `auth-cli registration update`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Replace the registration's metadata (RFC 7592 §2.2): what was registered, with these changes.")
        @Option(help: "The redirect URIs to register instead (repeatable; each exactly as auth-cli will send it).")
        var redirectURI: [String] = []
        @Option(help: "The contact e-mail addresses to register instead (repeatable).")
        var contact: [String] = []
        @Option(help: "The client name to register instead.")
        var clientName: String?
        @Option(help: "The scopes to register instead (space-separated).")
        var scope: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var selection: AccountOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let output = Output(options: output)
            try await output.reportingErrors {
                let kept = try await KeptRegistration.open(store, selection)
                var request = kept.registration.request
                if !redirectURI.isEmpty {
                    request.redirectURIs = try redirectURI.map { try LoginCommand.loopbackURL($0) }
                }
                if !contact.isEmpty { request.contacts = contact }
                if let clientName { request.clientName = clientName }
                if let scope { request.scopes = scope.split(separator: " ").map(String.init) }
                let registration = try await kept.registrar().update(kept.registration, to: request)
                try await kept.save(registration)
                output.emit(KeptRegistration.describe(registration), human: ["updated"] + KeptRegistration.lines(registration))
            }
        }
    }
}

/// The registration a stored session keeps (under its configuration's `registration` key), and how to keep a new one.
struct KeptRegistration {
    let registration: DynamicRegistration
    let configuration: [String: JSONValue]
    let write: @Sendable ([String: JSONValue]) async throws -> Void

    /// The stored session's registration.
    ///
    /// - Throws: `not_signed_in` without a stored session; `invalid_configuration` when it was not registered by
    ///   `login --register`.
    static func open(_ store: StoreOptions, _ selection: AccountOptions) async throws -> KeptRegistration {
        let provider: ProviderID
        let configuration: [String: JSONValue]
        let write: @Sendable ([String: JSONValue]) async throws -> Void
        switch try store.location {
        case .file(let url):
            let file = try CLIStore(opening: url)
            provider = await file.providerID
            configuration = await file.configuration.values
            write = { try await file.replaceConfiguration($0) }
        case .keyring:
            let sessions = KeyringSessions()
            let (accounts, active) = try await sessions.accounts()
            let key = try selection.choose(from: accounts.map(\.key), active: active)
            guard let profile = accounts.first(where: { $0.key == key })?.profile else {
                throw AuthError(.storageCorrupted, "The keyring holds no profile for \(key.account) at \(key.issuer); run `auth-cli login` again.")
            }
            provider = profile.provider
            configuration = profile.configuration
            write = { try await sessions.saveProfile(KeyringSessions.Profile(provider: profile.provider, configuration: $0), for: key) }
        }
        guard provider == "oidc", let kept = configuration["registration"] else {
            throw AuthError(.invalidConfiguration, "This session's client was not registered by `auth-cli login --register`; there is no registration to read.")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let registration: DynamicRegistration
        do {
            registration = try decoder.decode(DynamicRegistration.self, from: try JSONEncoder().encode(kept))
        } catch {
            throw AuthError(.storageCorrupted, "The kept registration is unreadable; log in with --register again.")
        }
        return KeptRegistration(registration: registration, configuration: configuration, write: write)
    }

    /// A registrar over auth-cli's transport.
    func registrar() throws -> ClientRegistrar {
        ClientRegistrar(transport: try CLITransport.shared())
    }

    /// Keeps `registration` with the session: its client id and secret in the configuration, the registration itself
    /// (with its access token and URI) under `registration`; every other key as it was.
    func save(_ registration: DynamicRegistration) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        var values = configuration
        for (key, value) in registration.providerConfiguration().values { values[key] = value }
        values["registration"] = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(registration))
        try await write(values)
    }

    /// The registration as JSON, no secret: the client secret and registration access token as present or not.
    static func describe(_ registration: DynamicRegistration) -> [String: JSONValue] {
        let request = registration.request
        var object: [String: JSONValue] = [
            "issuer": .string(registration.issuer), "client_id": .string(registration.clientID),
            "application_type": .string(request.applicationType.rawValue),
            "redirect_uris": .array(request.redirectURIs.map { .string($0.absoluteString) }),
            "token_endpoint_auth_method": .string(request.authenticationMethod.rawValue),
            "grant_types": .array(request.grantTypes.map(JSONValue.string)), "response_types": .array(request.responseTypes.map(JSONValue.string)),
            "scope": .string(request.scopes.joined(separator: " ")), "contacts": .array(request.contacts.map(JSONValue.string)),
            "client_secret": .bool(registration.clientSecret != nil), "registration_access_token": .bool(registration.registrationAccessToken != nil)
        ]
        if let name = request.clientName { object["client_name"] = .string(name) }
        if let uri = registration.registrationClientURI { object["registration_client_uri"] = .string(uri.absoluteString) }
        if let expiry = registration.clientSecretExpiresAt { object["client_secret_expires_at"] = .number(expiry.timeIntervalSince1970.rounded(.down)) }
        return object
    }

    /// The registration for people.
    static func lines(_ registration: DynamicRegistration) -> [String] {
        let request = registration.request
        return [
            "client     \(registration.clientID) at \(registration.issuer)",
            "redirects  \(request.redirectURIs.map(\.absoluteString).joined(separator: " "))",
            "auth       \(request.authenticationMethod.rawValue)\(registration.clientSecret != nil ? " (secret kept)" : "")",
            "grants     \(request.grantTypes.joined(separator: " ")); responses \(request.responseTypes.joined(separator: " "))",
            "contacts   \(request.contacts.isEmpty ? "-" : request.contacts.joined(separator: " "))",
            "name       \(request.clientName ?? "-")"
        ]
    }
}
