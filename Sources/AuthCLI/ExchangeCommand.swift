import ArgumentParser
import AuthProviders
import AuthTokenExchange
import CommandLineOutput
import Foundation

/// `auth-cli exchange`: a token for another audience, resource or scope, exchanged from the stored session's
/// (OAuth 2.0 Token Exchange, RFC 8693). The session's own tokens are not changed.
struct ExchangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exchange",
        abstract: "Exchange the session's token for one scoped to another audience, resource or scope (RFC 8693); the session's own tokens are kept.",
        discussion: """
            auth-cli exchange --audience https://api.example.com --scope "orders:read" --show-tokens
            The token itself is printed only with --show-tokens.
            """
    )
    @Option(help: "The audience the token is for (RFC 8693 audience; repeatable).")
    var audience: [String] = []
    @Option(help: "The resource server URI the token is for (RFC 8693 / RFC 8707 resource; repeatable).")
    var resource: [String] = []
    @Option(help: "Space-separated scopes to ask for (the server's choice by default).")
    var scope: String?
    @Option(help: "The token type to ask for: access_token (the default), jwt, id_token, or a full URI.")
    var requestedTokenType = "access_token"
    @Option(help: "Which of the session's tokens to exchange: access_token (the default) or id_token.")
    var subject = "access_token"
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let resources = try resource.map { text -> URL in
            guard let url = URL(string: text), url.scheme != nil else { throw ValidationError("--resource must be an absolute URI: \(text)") }
            return url
        }
        guard subject == "access_token" || subject == "id_token" else { throw ValidationError("--subject is access_token or id_token.") }
        let type: TokenExchangeTokenType =
            requestedTokenType.contains(":")
            ? TokenExchangeTokenType(rawValue: requestedTokenType)
            : TokenExchangeTokenType(rawValue: "urn:ietf:params:oauth:token-type:" + requestedTokenType)
        let request = TokenExchangeRequest(
            audience: audience, resources: resources, scopes: scope.map { $0.split(separator: " ").map(String.init) }, requestedTokenType: type,
            subject: subject == "id_token" ? .idToken : .accessToken)
        try await StoredSession.run(store, selection, output) { stored, output in
            let token = try await stored.session.exchangeToken(request)
            var object: [String: JSONValue] = [
                "issued_token_type": .string(token.issuedTokenType.rawValue), "token_type": .string(token.tokenType),
                "expires_at": token.expiresAt.map { .string(Output.timestamp($0)) } ?? .null,
                "scope": token.scopes.map { .string($0.joined(separator: " ")) } ?? .null,
                "audience": .array(audience.map(JSONValue.string)), "dpop_bound": .bool(token.isDPoPBound)
            ]
            var human = [
                "exchanged  \(token.issuedTokenType.rawValue) (\(token.tokenType))",
                "expires    \(token.expiresAt.map(Output.timestamp) ?? "unknown")"
            ]
            if let scopes = token.scopes { human.append("scope      \(scopes.joined(separator: " "))") }
            // The token is a credential: printed only with --show-tokens, like the CLI's other token outputs.
            if output.options.showTokens {
                object["token"] = .string(token.token.reveal())
                human.append("token      \(token.token.reveal())")
            }
            output.emit(object, human: human)
        }
    }
}
