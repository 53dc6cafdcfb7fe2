import ArgumentParser
import AuthProviders
import CommandLineOutput

/// `auth-cli providers`: the registered provider ids.
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "providers", abstract: "List the registered provider ids.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let registry = ProviderRegistry.builtIn
        let entries: [JSONValue] = registry.registeredProviders.map {
            ["id": .string($0.id.rawValue), "name": .string($0.displayName)]
        }
        Output(options: output).emit(
            ["providers": .array(entries)],
            human: registry.registeredProviders.map {
                "\($0.id.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.displayName)"
            }
        )
    }
}
