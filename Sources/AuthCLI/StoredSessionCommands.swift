import ArgumentParser
import AuthProviders
import AuthTokenExchange
import CommandLineOutput
import Foundation

/// Opens the stored session for the commands that act on it.
struct StoredSession {
    let client: AuthClient
    let session: Session
    /// Where it is stored: `secret-service`, or the session file's path.
    let location: String

    static func open(_ store: StoreOptions, _ selection: AccountOptions, verbose: Bool) async throws -> StoredSession {
        let logger = TerminalLogger(minimum: verbose ? .trace : .warning)
        switch try store.location {
        case .file(let url):
            let file = try CLIStore(opening: url)
            if await file.isFromEmbeddedTestProvider {
                throw AuthError(
                    .invalidConfiguration,
                    "This session came from the test identity provider an earlier auth-cli embedded; log in again with --issuer or --provider/--config."
                )
            }
            let provider = try ProviderRegistry.builtIn.provider(named: await file.providerID.rawValue, configuration: await file.configuration)
            let client = AuthClient(provider: provider, storage: file, transport: try CLITransport.shared(for: await file.configuration), logger: logger)
            let keys = try await file.storedKeys()
            guard !keys.isEmpty else {
                throw AuthError(.notSignedIn, "The session file \(url.path) holds no credential; run `auth-cli login`.")
            }
            let key = try selection.choose(from: keys, active: keys.count == 1 ? keys[0] : nil)
            guard let session = try await client.restoreSession(key: key) else {
                throw AuthError(.notSignedIn, "The session file \(url.path) holds no credential for this client; run `auth-cli login`.")
            }
            return StoredSession(client: client, session: session, location: url.path)
        case .keyring:
            let sessions = KeyringSessions()
            let key: StorageKey
            let found: KeyringSessions.Profile?
            if selection.issuer == nil, selection.account == nil, let active = try await sessions.active() {
                // The usual case, read directly: the active account's items only.
                (key, found) = active
                guard try await sessions.credentials.credential(for: key) != nil else { throw selection.gone(key) }
            } else {
                let (accounts, active) = try await sessions.accounts()
                key = try selection.choose(from: accounts.map(\.key), active: active)
                found = accounts.first { $0.key == key }?.profile
            }
            guard let profile = found else {
                throw AuthError(.storageCorrupted, "The keyring holds no profile for \(key.account) at \(key.issuer); run `auth-cli login` again.")
            }
            let provider = try ProviderRegistry.builtIn.provider(named: profile.provider.rawValue, configuration: ProviderConfiguration(profile.configuration))
            let storage = KeyringSessionStore(sessions)
            let client = AuthClient(
                provider: provider, storage: storage, transport: try CLITransport.shared(for: ProviderConfiguration(profile.configuration)), logger: logger)
            guard let session = try await client.restoreSession(key: key) else {
                throw AuthError(.notSignedIn, "The keyring holds no credential for \(key.account) at \(key.issuer); run `auth-cli login`.")
            }
            return StoredSession(client: client, session: session, location: "secret-service")
        }
    }
}

extension StoredSession {
    /// Opens the stored session and runs `body`, reporting any error in the command's output format.
    static func run(
        _ store: StoreOptions,
        _ selection: AccountOptions,
        _ options: OutputOptions,
        _ body: (StoredSession, Output) async throws -> Void
    ) async throws {
        let output = Output(options: options)
        try await output.reportingErrors {
            try await body(try await open(store, selection, verbose: options.verbose), output)
        }
    }
}

/// `auth-cli refresh`.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Refresh the stored session's access token now.")
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            try await stored.session.refresh()
            output.emit(await output.describe(stored.session), human: ["refreshed"] + (await output.humanLines(stored.session)))
        }
    }
}

/// `auth-cli userinfo`.
struct UserInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "userinfo", abstract: "Fetch the user's claims (sub checked against the ID token).")
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            // A GOV.UK One Login service's identity is shown only once its JWT verified against GOV.UK's DID document.
            if stored.session.client.provider is GOVUKServiceProvider {
                let info = try await stored.session.govUKUserInfo()
                var claims = info.claims.claims
                var human: [String] = []
                if let identity = info.coreIdentity {
                    claims["verified_identity"] = [
                        "level_of_confidence": .string(identity.levelOfConfidence.description),
                        "name": .string(identity.currentName?.fullName ?? ""),
                        "birth_dates": .array(identity.birthDates.map(JSONValue.string))
                    ]
                    human.append("identity   \(identity.levelOfConfidence) verified: \(identity.currentName?.fullName ?? "-"), born \(identity.birthDates.joined(separator: ", "))")
                }
                if !info.returnCodes.isEmpty { human.append("return codes \(info.returnCodes.map(\.code).joined(separator: ", "))") }
                claims["https://vocab.account.gov.uk/v1/coreIdentityJWT"] = nil
                output.emit(claims, human: human + Self.lines(claims))
                return
            }
            let info = try await stored.session.userInfo()
            output.emit(info.claims, human: Self.lines(info.claims))
        }
    }

    private static func lines(_ claims: [String: JSONValue]) -> [String] {
        claims.sorted { $0.key < $1.key }.map { "\($0.key) = \(Output.jsonText(["v": $0.value]).dropFirst(5).dropLast())" }
    }
}

/// `auth-cli introspect`.
struct IntrospectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "introspect", abstract: "Ask the provider whether the token is active (RFC 7662).")
    @Option(help: "Which token: access or refresh.")
    var token: String = "access"
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            let result = try await stored.session.introspect(token == "refresh" ? .refreshToken : .accessToken)
            output.emit(result.all, human: ["active     \(result.isActive)", "scope      \(result.scope ?? "-")", "client     \(result.clientID ?? "-")"])
        }
    }
}

/// `auth-cli revoke`.
struct RevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke the stored access or refresh token (RFC 7009).")
    @Option(help: "Which token: access or refresh.")
    var token: String = "refresh"
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            let credential = await stored.session.credential
            let hint: TokenTypeHint = token == "access" ? .accessToken : .refreshToken
            guard let value = hint == .accessToken ? credential.accessToken : credential.refreshToken else {
                throw AuthError(.notSignedIn, "The stored session has no refresh token.")
            }
            try await stored.client.revoke(value, hint: hint)
            output.emit(["revoked": .string(hint.rawValue)], human: ["revoked    \(hint.rawValue)"])
        }
    }
}

/// `auth-cli logout`.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out: revoke the tokens and delete the stored session.")
    @Flag(help: "Only delete the local session; do not revoke at the provider.")
    var local = false
    @Flag(help: "With --family: end the app family's shared sign-in too (its device secret removed, the tokens revoked).")
    var endFamilySession = false
    @OptionGroup var family: FamilyOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            // The raw ID token (id_token_hint) is a credential: printed only with --show-tokens. A registered
            // post-logout redirect URI goes with a fresh state, which the provider echoes on its redirect there
            // (OpenID Connect RP-Initiated Logout 1.0 §3; GOV.UK One Login honours it only with id_token_hint).
            let postLogout = stored.client.provider.client.postLogoutRedirectURI
            let state = postLogout == nil ? nil : SecureRandom.token()
            let endSession = try? await stored.session.endSessionURL(
                postLogoutRedirectURI: postLogout, state: state, includingIDTokenHint: output.options.showTokens)
            let key = await stored.session.credential.storageKey
            let family = try family.value
            guard !endFamilySession || family != nil else { throw ValidationError("--end-family-session needs --family and --family-store.") }
            let report =
                if let family {
                    try await family.signOut(stored.session, endingFamilySession: endFamilySession, revokingTokens: !local)
                } else {
                    try await stored.session.signOut(revokingTokens: !local)
                }
            var object: [String: JSONValue] = [
                "signed_out": true, "revoked_refresh_token": .bool(report.revokedRefreshToken),
                "revoked_access_token": .bool(report.revokedAccessToken), "ended_family_session": .bool(endFamilySession)
            ]
            var human: [String] = []
            if stored.location == "secret-service", let next = try await Self.handOver(from: key) {
                object["active"] = .string(next.account)
                human.append("active     now \(next.account) at \(next.issuer)")
            }
            if let error = report.revocationError { object["revocation_error"] = .string(error.message) }
            if let endSession { object["end_session_url"] = .string(endSession.absoluteString) }
            if endSession != nil, let postLogout, let state {
                object["post_logout_redirect_uri"] = .string(postLogout.absoluteString)
                object["state"] = .string(state)
            }
            human = ["signed out locally", "revoked    refresh: \(report.revokedRefreshToken), access: \(report.revokedAccessToken)"] + human
            if let error = report.revocationError { human.append("warning    revocation failed: \(error.message)") }
            if let endSession { human.append("browser    open to end the provider's web session: \(endSession.absoluteString)") }
            if endSession != nil, let postLogout, let state {
                human.append("returns    to \(postLogout.absoluteString) with state \(state)")
                if !output.options.showTokens {
                    human.append("note       without --show-tokens the URL has no id_token_hint, which some providers (GOV.UK One Login) need to return there")
                }
            }
            output.emit(object, human: human)
        }
    }

    /// After the active account logged out: the only other account becomes active (as `gh auth logout` does);
    /// with several, none is (a command then asks for `switch`). Returns the new active account.
    private static func handOver(from key: StorageKey) async throws -> StorageKey? {
        let sessions = KeyringSessions()
        guard try await sessions.active()?.key == key else { return nil }
        let others = try await sessions.accounts().accounts.map(\.key).filter { $0 != key }
        guard others.count == 1 else {
            try await sessions.clearActive()
            return nil
        }
        try await sessions.setActive(others[0])
        return others[0]
    }
}
