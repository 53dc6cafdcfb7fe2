import ArgumentParser
import AuthDynamicRegistration
import AuthProviders
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `auth-cli login --register` and `--account-hint`: the issuer from WebFinger (RFC 7033, OpenID Connect Discovery
/// §2), then a native public client registered with it (RFC 7591), kept in the stored configuration.
extension LoginCommand {
    /// How the registered client authenticates: `none` (a public client, the default) or a secret method.
    enum RegistrationAuthMethod: String, ExpressibleByArgument, CaseIterable {
        case none
        case clientSecretBasic = "client_secret_basic"
        case clientSecretPost = "client_secret_post"
    }

    /// The issuer: `--issuer`, or the one WebFinger names for `--account-hint`.
    func registrationIssuer(transport: any HTTPTransport) async throws -> String {
        if let issuer {
            guard accountHint == nil else { throw ValidationError("Use either --issuer or --account-hint, not both.") }
            return issuer
        }
        guard let accountHint else { throw ValidationError("--register needs --issuer URL or --account-hint acct:user@host.") }
        return try await WebFinger(transport: transport, limits: HTTPRequestLimits(timeout: .seconds(requestTimeout))).issuer(for: accountHint)
    }

    /// Registers a client with the issuer and returns the `oidc` configuration built from it, the registration (its
    /// registration access token and URI included) kept under the `registration` key.
    func registeredSetup() async throws -> (ProviderID, ProviderConfiguration) {
        guard provider == nil || provider == "oidc", config == nil, clientID == nil, clientSecret == nil, clientSecretFile == nil else {
            throw ValidationError("--register registers a new client: leave out --provider, --config, --client-id and the client secret.")
        }
        guard !device else { throw ValidationError("--register registers a browser (loopback) client; leave out --device.") }
        let transport = try CLITransport.shared()
        let issuer = try await registrationIssuer(transport: transport)
        let redirect = try redirectURI.map { try Self.loopbackURL($0) } ?? Self.freeLoopbackRedirect()
        var request = RegistrationRequest(
            applicationType: .native, redirectURIs: [redirect],
            authenticationMethod: ClientRegistration.AuthenticationMethod(rawValue: registerAuthMethod.rawValue) ?? .none,
            scopes: scope.split(separator: " ").map(String.init), clientName: "auth-cli",
            contacts: registrationContact
        )
        try addResponseProtection(to: &request)
        let initial = ProcessInfo.processInfo.environment["AUTH_CLI_INITIAL_ACCESS_TOKEN"].flatMap { $0.isEmpty ? nil : Secret($0) }
        let registrar = ClientRegistrar(transport: transport, limits: HTTPRequestLimits(timeout: .seconds(requestTimeout)))
        let registration = try await registrar.register(request, issuer: issuer, initialAccessToken: initial)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let kept = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(registration))
        var extra: [String: JSONValue] = ["registration": kept]
        if let path = try decryptionKeyPath() { extra["decryption_key_file"] = .string(path) }
        if !parameters.isEmpty {
            extra["parameters"] = .object(Dictionary(parameters.map { ($0.key, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
        return ("oidc", registration.providerConfiguration(adding: extra))
    }

    /// `--redirect-uri` for a registration: a loopback http URL with a port (the exact URI is registered).
    static func loopbackURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http", url.port != nil, ["127.0.0.1", "[::1]", "::1"].contains(url.host ?? "") else {
            throw ValidationError("--redirect-uri with --register must be http://127.0.0.1:PORT/path (the exact URI is registered).")
        }
        return url
    }

    /// `http://127.0.0.1:PORT/callback` with a port the system has free now (bound, read, released).
    static func freeLoopbackRedirect() throws -> URL {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ValidationError("Cannot open a socket to choose a loopback port; pass --redirect-uri.") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound, let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/callback") else {
            throw ValidationError("Cannot choose a loopback port; pass --redirect-uri http://127.0.0.1:PORT/callback.")
        }
        return url
    }
}
