import ArgumentParser
import AuthDeviceFlow
import AuthEmulators
import AuthProviders
import AuthTesting
import CommandLineOutput
import Foundation

/// `auth-emulator demo`: every registered provider that has an emulator — sign in, refresh, sign out — one row each.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Sign in, refresh and sign out with every provider that has an emulator, and print one row each."
    )

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let output = Output(options: output)
        try await output.reportingErrors {
            var rows: [[String: JSONValue]] = []
            var failed = false
            let registry = ProviderRegistry.builtIn
            for id in registry.providerIDs {
                for emulator in ProviderEmulator.makeAll(for: id) {
                    let row = await Self.exercise(emulator, registry: registry)
                    if row["ok"] != .bool(true) { failed = true }
                    rows.append(row)
                }
            }
            let device = await Self.exerciseDevice(registry: registry)
            if device["ok"] != .bool(true) { failed = true }
            rows.append(device)
            let dpop = await Self.exerciseDPoP(registry: registry)
            if dpop["ok"] != .bool(true) { failed = true }
            rows.append(dpop)
            output.emit(
                ["providers": .array(rows.map(JSONValue.object))],
                human: rows.flatMap(Self.lines)
            )
            if failed { throw ExitCode(1) }
        }
    }

    /// Runs one provider's flow against its emulator and reports what was checked.
    static func exercise(_ emulator: ProviderEmulator, registry: ProviderRegistry) async -> [String: JSONValue] {
        var row: [String: JSONValue] = ["provider": .string(emulator.providerID.rawValue), "route": .string(emulator.route)]
        let transport = RecordingTransport(emulator.transport)
        let logger = RecordingLogger()
        let storage = InMemoryTokenStorage()
        do {
            let provider = try registry.provider(named: emulator.providerID.rawValue, configuration: emulator.configuration)
            let client = AuthClient(provider: provider, storage: storage, transport: transport, logger: logger, clock: emulator.clock)
            let request = try await client.prepareSignIn()
            let redirect = try await emulator.userAgent.authorize(request)
            let session = try await client.completeSignIn(redirect: redirect)
            row["sign_in"] = "ok"
            let credential = await session.credential
            row["subject"] = .string(credential.subject ?? "-")
            row["expires_at"] = credential.expiresAt.map { .string(Output.timestamp($0)) } ?? .null

            var checks: [String] = []
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            if query.contains(where: { $0.name == "code_challenge_method" && $0.value == "S256" }) { checks.append("PKCE S256") }
            if query.contains(where: { $0.name == "state" }) { checks.append("state") }
            if query.contains(where: { $0.name == "nonce" }) { checks.append("nonce") }
            if await session.idTokenClaims != nil { checks.append("ID token") }
            if provider is GOVUKServiceProvider, let identity = try await session.govUKUserInfo().coreIdentity {
                checks.append("core identity \(identity.levelOfConfidence) verified")
            }

            if emulator.supportsRefresh {
                let before = await session.credential.accessToken
                let after = try await session.refresh().accessToken
                row["refresh"] = after != before ? "ok" : "unchanged"
            } else {
                row["refresh"] = "n/a"
            }
            try await session.signOut()
            row["sign_out"] = await storage.isEmpty ? "ok" : "left data"
            let secrets = await transport.exchanges.compactMap { $0.request.value(forHTTPHeaderField: "Authorization") }
            if !secrets.contains(where: { logger.contains($0) }) { checks.append("no secrets logged") }
            row["checks"] = .array(checks.map(JSONValue.string))
            row["requests"] = .number(Double(await transport.exchanges.count))
            row["ok"] = .bool(row["refresh"] != "unchanged" && row["sign_out"] == "ok")
        } catch {
            row["error"] = .string("\(error)")
            row["ok"] = false
        }
        return row
    }

    /// The device authorization grant (RFC 8628) against the OpenID Connect emulator: the code is shown, "a phone"
    /// approves it while the client waits (no real waiting: the poll interval is skipped), then refresh and sign-out.
    static func exerciseDevice(registry: ProviderRegistry) async -> [String: JSONValue] {
        var row: [String: JSONValue] = ["provider": "oidc", "route": "device (RFC 8628)"]
        let emulator = ProviderEmulator.openIDConnect()
        guard let idp = emulator.identityProvider else { return row.merging(["error": "no emulator", "ok": false]) { $1 } }
        let storage = InMemoryTokenStorage()
        let shown = LockedValue<String?>(nil)
        var options = AuthClient.Options()
        options.pollingSleep = { _ in
            if let userCode = shown.withLock({ $0 }) { await idp.approveDevice(userCode: userCode) }
        }
        do {
            let provider = try registry.provider(named: "oidc", configuration: emulator.configuration)
            let client = AuthClient(
                provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(),
                clock: emulator.clock, options: options)
            let session = try await client.signInOnDevice { authorization in shown.withLock { $0 = authorization.userCode } }
            row["sign_in"] = "ok"
            let credential = await session.credential
            row["subject"] = .string(credential.subject ?? "-")
            row["expires_at"] = credential.expiresAt.map { .string(Output.timestamp($0)) } ?? .null
            var checks = ["user code \(shown.withLock { $0 } ?? "?") approved", "polling"]
            if await session.idTokenClaims != nil { checks.append("ID token") }
            let before = credential.accessToken
            row["refresh"] = try await session.refresh().accessToken != before ? "ok" : "unchanged"
            try await session.signOut()
            row["sign_out"] = await storage.isEmpty ? "ok" : "left data"
            row["checks"] = .array(checks.map(JSONValue.string))
            row["ok"] = .bool(row["refresh"] == "ok" && row["sign_out"] == "ok")
        } catch {
            row["error"] = .string("\(error)")
            row["ok"] = false
        }
        return row
    }

    /// DPoP (RFC 9449) against the OpenID Connect emulator with nonces required: the tokens are bound to a key made
    /// for this sign-in, user info and refresh prove it, and the access token alone — as a thief would hold it — is
    /// refused by the resource server.
    static func exerciseDPoP(registry: ProviderRegistry) async -> [String: JSONValue] {
        var row: [String: JSONValue] = ["provider": "oidc", "route": "DPoP (RFC 9449)"]
        let emulator = ProviderEmulator.openIDConnect(dpop: .init(requiresNonce: true))
        guard let idp = emulator.identityProvider else { return row.merging(["error": "no emulator", "ok": false]) { $1 } }
        let storage = InMemoryTokenStorage()
        let transport = RecordingTransport(emulator.transport)
        do {
            let provider = try registry.provider(named: "oidc", configuration: emulator.configuration)
            let client = AuthClient(provider: provider, storage: storage, transport: transport, logger: RecordingLogger(), clock: emulator.clock)
            let session = try await client.signIn(with: emulator.userAgent)
            row["sign_in"] = "ok"
            let credential = await session.credential
            row["subject"] = .string(credential.subject ?? "-")
            row["expires_at"] = credential.expiresAt.map { .string(Output.timestamp($0)) } ?? .null
            var checks: [String] = []
            if credential.tokenType == "DPoP", let key = credential.dpopKey { checks.append("bound to jkt \(key.thumbprint.prefix(8))…") }
            if await transport.exchanges(pathSuffix: "/token").first?.status == 400 { checks.append("server nonce") }
            _ = try await session.userInfo()
            checks.append("user info with proof")
            var stolen = HTTPRequest(method: .get, url: idp.endpoint("/api/resource"))
            stolen.headerFields[.authorization] = "Bearer \(credential.accessToken.reveal())"
            if try await emulator.transport.send(stolen, body: nil).1.status == .unauthorized { checks.append("stolen token refused") }
            let refreshed = try await session.refresh()
            row["refresh"] = refreshed.accessToken != credential.accessToken && refreshed.dpopKey == credential.dpopKey ? "ok" : "unchanged"
            try await session.signOut()
            row["sign_out"] = await storage.isEmpty ? "ok" : "left data"
            row["checks"] = .array(checks.map(JSONValue.string))
            row["ok"] = .bool(checks.count == 4 && row["refresh"] == "ok" && row["sign_out"] == "ok")
        } catch {
            row["error"] = .string("\(error)")
            row["ok"] = false
        }
        return row
    }

    /// One block per row for an 80-column terminal: a heading line, then the whole subject (never cut: a GOV.UK or
    /// Microsoft subject can be copied from it), the expiry and the checks, wrapped rather than truncated.
    static func lines(_ row: [String: JSONValue]) -> [String] {
        func value(_ key: String) -> String { row[key]?.stringValue ?? "-" }
        let heading = "\(value("provider")) (\(value("route")))"
        if let error = row["error"]?.stringValue { return Output.wrapped(heading + "  FAILED: ", error) }
        let checks = row["checks"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? "-"
        let summary = "\(heading)  sign-in \(value("sign_in"))  refresh \(value("refresh"))  sign-out \(value("sign_out"))"
        return (summary.count <= 80 ? [summary] : Output.wrapped("", summary))
            + Output.wrapped("  subject  ", value("subject")) + Output.wrapped("  expires  ", value("expires_at"))
            + Output.wrapped("  checks   ", checks)
    }
}
