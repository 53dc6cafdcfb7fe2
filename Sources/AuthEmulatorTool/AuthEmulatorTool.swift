import ArgumentParser

/// `auth-emulator`: the providers' emulators — a demo of every provider in process, or each one served over HTTP on
/// 127.0.0.1 for `auth-cli`, an app or a browser. Test code lives here, never in `auth-cli`.
@main
struct AuthEmulatorTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-emulator",
        abstract: "Run every provider against its emulator (demo), or serve the emulators over HTTP (emulate).",
        discussion: """
            Everything runs on this machine: no network, no account at any provider.
              auth-emulator demo                                   # sign in, refresh, sign out with every provider
              auth-emulator emulate grab --config-dir /tmp/emu     # then: auth-cli login --provider grab --config /tmp/emu/grab.json
            """,
        subcommands: [DemoCommand.self, EmulateCommand.self]
    )
}
