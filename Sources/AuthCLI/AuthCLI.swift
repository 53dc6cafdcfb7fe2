import ArgumentParser

/// `auth-cli`: sign in with any registered provider or any OpenID Connect issuer from the terminal.
@main
struct AuthCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-cli",
        abstract: "Sign in with any provider or OpenID Connect issuer, and manage the stored sessions.",
        discussion: """
            Sessions are kept in the system keyring (the freedesktop Secret Service: GNOME Keyring, KWallet, \
            KeePassXC; on Linux through libsecret's secret-tool). Without one, `login` refuses: --store FILE or \
            --insecure-storage keeps the session in a plaintext file (mode 0600) instead.

            To try it without an account anywhere, serve an emulator first: \
            `auth-emulator emulate oidc --config-dir /tmp/emu`, then `auth-cli login --config /tmp/emu/oidc.json`.

            Exit status: 0 done; 1 refused (by the provider, a check, or the stored data); 3 network (the provider \
            could not be reached or answered with a server error); 4 signed out (no account, or the provider revoked \
            the session: log in again); 5 no keyring (no Secret Service answers, or its collection is locked); 64 usage.
            """,
        subcommands: [
            ProvidersCommand.self, LoginCommand.self, StatusCommand.self, SwitchCommand.self, TokenCommand.self,
            RefreshCommand.self, UserInfoCommand.self, IntrospectCommand.self, RevokeCommand.self, LogoutCommand.self,
            ImportCommand.self, RegistrationCommand.self, ExchangeCommand.self
        ]
    )
}
