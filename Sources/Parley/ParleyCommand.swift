import ArgumentParser

/// `parley serve`, `parley migrate` and the admin commands; configuration comes from the
/// environment (see docs/CONFIGURATION.md).
@main
struct ParleyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley, a self-hosted chat platform server.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, UserCommand.self, TokenCommand.self, ChannelCommand.self, ReportCommand.self,
            WebhookCommand.self, DoctorCommand.self, MigrateFilesCommand.self
        ],
        defaultSubcommand: ServeCommand.self
    )

}
