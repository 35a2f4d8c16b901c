import ArgumentParser

/// `parley serve` and `parley migrate`; configuration comes from the environment (see README).
@main
struct ParleyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley, a self-hosted chat platform server.",
        subcommands: [ServeCommand.self, MigrateCommand.self],
        defaultSubcommand: ServeCommand.self
    )

}
