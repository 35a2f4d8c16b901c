import ArgumentParser
import ParleyCore

/// `parley channel list|freeze`.
struct ChannelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel", abstract: "List or freeze channels.", subcommands: [List.self, Freeze.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List group channels (or open channels with --open).")
        @Flag(help: "Open channels instead of group channels.") var open = false
        @Option(help: "Channels per page (1-100).") var limit = 20
        @Option(help: "The page token a previous list printed.") var next: String?

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be 1...100.") }
        }

        func run() async throws {
            try await AdminSession.run { container in
                if open {
                    let page = try await container.openChannels.list(.admin, OpenChannelFilter(), limit: limit, pageToken: next)
                    print(
                        AdminFormat.table(
                            ["CHANNEL URL", "NAME", "PARTICIPANTS", "FROZEN", "CREATED"],
                            page.items.map {
                                [
                                    $0.channelURL, $0.name, String($0.participantCount), $0.freeze ? "yes" : "no",
                                    AdminFormat.time($0.createdAt)
                                ]
                            }))
                    AdminFormat.printNext(page.next)
                } else {
                    let page = try await container.channelLists.channels(
                        .admin, viewerID: nil, filter: ChannelFilter(), limit: limit, pageToken: next)
                    print(
                        AdminFormat.table(
                            ["CHANNEL URL", "NAME", "MEMBERS", "FROZEN", "CREATED"],
                            page.items.map(\.channel).map {
                                [$0.channelURL, $0.name, String($0.memberCount), $0.freeze ? "yes" : "no", AdminFormat.time($0.createdAt)]
                            }))
                    AdminFormat.printNext(page.next)
                }
            }
        }
    }

    struct Freeze: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Freeze a channel (only operators may send), or unfreeze it.")
        @Argument(help: "The channel's URL.") var channelURL: String
        @Flag(help: "An open channel.") var open = false
        @Flag(help: "Unfreeze instead.") var unfreeze = false

        func run() async throws {
            try await AdminSession.run { container in
                let frozen =
                    open
                    ? try await container.openChannels.freeze(.admin, channelURL, !unfreeze).freeze
                    : try await container.channelOperators.freeze(.admin, channelURL, !unfreeze).channel.freeze
                print("\(channelURL) is \(frozen ? "frozen" : "not frozen")")
            }
        }
    }
}
