import ArgumentParser

/// `auth-cli`: sign in with any registered provider or any OpenID Connect issuer from the terminal.
@main
struct AuthCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-cli",
        abstract: "Sign in with any provider or OpenID Connect issuer, and manage the stored session.",
        discussion: """
            With no issuer and no provider configuration, `login` signs in against the embedded in-process \
            identity provider, so it works on a fresh machine without network access.
            """,
        subcommands: [
            ProvidersCommand.self, LoginCommand.self, DemoCommand.self, StatusCommand.self, RefreshCommand.self,
            UserInfoCommand.self, IntrospectCommand.self, RevokeCommand.self, LogoutCommand.self, EmulateCommand.self,
        ]
    )
}
