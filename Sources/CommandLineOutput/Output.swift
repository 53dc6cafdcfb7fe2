import ArgumentParser
package import AuthCore
package import Foundation

/// Writes results and errors in the chosen format.
package struct Output {
    /// The flags that choose it.
    package let options: OutputOptions

    /// An output for `options`.
    package init(options: OutputOptions) {
        self.options = options
    }

    /// Runs `body`; on failure prints a one-line message (or `{"error":…}` with `--json`) and exits with
    /// ``exitStatus(for:)``; a usage error (`ValidationError`) exits 64, as ArgumentParser's own usage errors do.
    package func reportingErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as AuthError {
            fail(code: error.code.rawValue, message: error.message + Self.hint(for: error), status: Self.exitStatus(for: error.code))
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            fail(code: "usage", message: error.message, status: 64)
        } catch {
            fail(code: "error", message: "\(error)", status: 1)
        }
    }

    /// The documented exit status of a failure: 3 network or a transient condition at the provider (a timeout, a 5xx,
    /// a rate limit: try again later), 4 signed out, 5 no keyring (storage unavailable), 1 any other refusal.
    package static func exitStatus(for code: AuthError.Code) -> Int32 {
        switch code {
        case .network, .serverError, .timedOut, .rateLimited: 3
        case .notSignedIn, .invalidGrant: 4
        case .storageUnavailable: 5
        default: 1
        }
    }

    private func fail(code: String, message: String, status: Int32) -> Never {
        if options.json {
            print(Self.jsonText(["error": ["code": .string(code), "message": .string(message)]]))
        } else {
            FileHandle.standardError.write(Data("error: \(ProviderText.sanitized(message, limit: 4000)) [\(code)]\n".utf8))
        }
        Foundation.exit(status)
    }

    private static func hint(for error: AuthError) -> String {
        switch error.code {
        case .notSignedIn: ""
        case .invalidGrant: " Run `auth-cli login` again."
        case .network, .serverError, .timedOut: " Check the network and the issuer URL, then retry."
        case .rateLimited: " The provider is limiting requests; retry later."
        case .stepUpRequired: " Run the command again with --step-up to sign in as the resource asks."
        case .discoveryFailed, .discoveryIssuerMismatch: " Check --issuer: it must be the issuer exactly as the provider publishes it."
        default: ""
        }
    }

    /// Prints `object` as JSON or, for people, as `key: value` lines.
    package func emit(_ object: [String: JSONValue], human: [String]) {
        if options.json {
            print(Self.jsonText(object))
        } else {
            // Lines quote provider text (issuer, subject, claims): no escape sequence reaches the terminal.
            human.forEach { print(ProviderText.sanitized($0, limit: 4000)) }
        }
    }

    /// `object` as compact JSON text.
    package static func jsonText(_ object: [String: JSONValue]) -> String {
        // Encoding a JSONValue cannot fail.
        String(decoding: try! JSONValue.object(object).jsonData(), as: UTF8.self)
    }

    /// The JSON description of a session; token values only with `--show-tokens`.
    package func describe(_ session: Session) async -> [String: JSONValue] {
        let credential = await session.credential
        var object: [String: JSONValue] = [
            "provider": .string(credential.providerID.rawValue),
            "issuer": .string(credential.issuer),
            "client_id": .string(credential.clientID),
            "subject": credential.subject.map(JSONValue.string) ?? .null,
            "scopes": .array(credential.scopes.map(JSONValue.string)),
            "expires_at": credential.expiresAt.map { .string(Self.timestamp($0)) } ?? .null,
            "has_refresh_token": .bool(credential.refreshToken != nil)
        ]
        if let claims = await session.idTokenClaims { object["id_token_claims"] = .object(claims.all) }
        if options.showTokens {
            var tokens: [String: JSONValue] = ["access_token": .string(credential.accessToken.reveal())]
            if let refresh = credential.refreshToken { tokens["refresh_token"] = .string(refresh.reveal()) }
            if let idToken = credential.idToken { tokens["id_token"] = .string(idToken.reveal()) }
            object["tokens"] = .object(tokens)
        }
        return object
    }

    /// Lines for people describing a session.
    package func humanLines(_ session: Session) async -> [String] {
        let credential = await session.credential
        var lines = [
            "provider   \(credential.providerID)",
            "issuer     \(credential.issuer)",
            "subject    \(credential.subject ?? "-")",
            "expires    \(credential.expiresAt.map(Self.timestamp) ?? "unknown")",
            "scopes     \(credential.scopes.joined(separator: " "))",
            "refresh    \(credential.refreshToken == nil ? "none" : "stored")"
        ]
        if let claims = await session.idTokenClaims {
            for (name, value) in claims.all.sorted(by: { $0.key < $1.key }) where !["iss", "sub"].contains(name) {
                lines.append("claim      \(name) = \(Self.jsonText(["v": value]).dropFirst(5).dropLast())")
            }
        }
        if options.showTokens {
            lines.append("access     \(credential.accessToken.reveal())")
            if let refresh = credential.refreshToken { lines.append("refresh    \(refresh.reveal())") }
        }
        return lines
    }

    /// `date` in ISO 8601 (UTC).
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}

/// An ``AuthLogger`` for the terminal: warnings and errors on standard error, everything with `--verbose`.
package struct TerminalLogger: AuthLogger {
    /// The lowest level shown.
    package let minimum: AuthLogRecord.Level

    /// A logger that shows `minimum` and above.
    package init(minimum: AuthLogRecord.Level) {
        self.minimum = minimum
    }

    /// Writes `record` to standard error when its level is `minimum` or above.
    package func log(_ record: AuthLogRecord) {
        guard record.level >= minimum else { return }
        let metadata = record.metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        FileHandle.standardError.write(Data("[\(record.level)] \(record.event): \(record.message)\(metadata)\n".utf8))
    }
}

/// `--json` and `--show-tokens`, shared by every command.
package struct OutputOptions: ParsableArguments {
    /// `--json`: print the result (or the error) as one JSON object.
    @Flag(help: "Print the result (or the error) as one JSON object.")
    package var json = false

    /// `--show-tokens`: include token values in the output.
    @Flag(help: "Include token values in the output. They are secrets: never paste them anywhere.")
    package var showTokens = false

    /// `--verbose`: log the engine's steps to standard error.
    @Flag(help: "Log the engine's steps to standard error (never secrets).")
    package var verbose = false

    /// No flag given.
    package init() {}
}
