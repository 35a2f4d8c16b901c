import ArgumentParser
import NIOCore
import NIOPosix

/// `parley serve` and `parley migrate`; configuration comes from the environment (see README).
@main
struct ParleyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley, a self-hosted chat platform server.",
        subcommands: [ServeCommand.self, MigrateCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        // Run Swift concurrency's global executor on NIO's event loops: request handlers then
        // continue on the thread that did the socket I/O instead of hopping to a second pool,
        // which on a 2-core machine is the largest cost of a request after the database itself.
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
