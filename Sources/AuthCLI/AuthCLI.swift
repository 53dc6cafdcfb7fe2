import ArgumentParser

/// `auth-cli`: sign in with any registered provider or any OpenID Connect issuer from the terminal.
@main
struct AuthCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-cli",
        abstract: "Sign in with any provider or OpenID Connect issuer, and manage the stored session.",
        discussion: """
            To try it without an account anywhere, serve an emulator first: \
            `auth-emulator emulate oidc --config-dir /tmp/emu`, then `auth-cli login --config /tmp/emu/oidc.json`.
            """,
        subcommands: [
            ProvidersCommand.self, LoginCommand.self, StatusCommand.self, RefreshCommand.self,
            UserInfoCommand.self, IntrospectCommand.self, RevokeCommand.self, LogoutCommand.self
        ]
    )
}
