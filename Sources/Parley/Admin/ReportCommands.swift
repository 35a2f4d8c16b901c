import ArgumentParser
import ParleyCore

/// `parley report list|resolve`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Review reports of messages, users and channels.", subcommands: [List.self, Resolve.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List reports, newest first.")
        @Option(help: "open, resolved or dismissed (default: all).") var status: String?
        @Option(help: "Reports per page (1-100).") var limit = 20
        @Option(help: "The page token a previous list printed.") var next: String?

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be 1...100.") }
            if let status, ReportStatus(rawValue: status) == nil { throw ValidationError("--status must be open, resolved or dismissed.") }
        }

        func run() async throws {
            try await AdminSession.run { container in
                var filter = ReportFilter()
                filter.status = status.flatMap(ReportStatus.init(rawValue:))
                let page = try await container.reports.list(.admin, filter, limit: limit, pageToken: next)
                print(
                    AdminFormat.table(
                        ["ID", "STATUS", "TYPE", "CATEGORY", "REPORTER", "SUBJECT", "CREATED", "DESCRIPTION"],
                        page.items.map { report in
                            [
                                String(report.reportID), report.status.rawValue, report.type.rawValue, report.category.rawValue,
                                report.reportingUser.userID, Self.subject(of: report), AdminFormat.time(report.createdAt),
                                String(report.description.prefix(60))
                            ]
                        }))
                AdminFormat.printNext(page.next)
            }
        }

        /// What was reported: the message, the user or the channel.
        static func subject(of report: Report) -> String {
            switch report.type {
            case .message: "message \(report.reportedMessage.map { String($0.messageID) } ?? "?") by \(report.offendingUser?.userID ?? "?")"
            case .user: "user \(report.offendingUser?.userID ?? "?")"
            case .channel: "channel \(report.channel?.channelURL ?? "?")"
            }
        }
    }

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a report resolved (or dismissed).")
        @Argument(help: "The report's id.") var reportID: Int64
        @Flag(help: "Dismiss it instead (no action needed).") var dismiss = false
        @Option(help: "What was done, kept with the report.") var resolution: String?

        func run() async throws {
            try await AdminSession.run { container in
                let report = try await container.reports.review(
                    .admin, reportID, status: dismiss ? .dismissed : .resolved, resolution: resolution)
                print("report \(report.reportID) is \(report.status.rawValue)")
            }
        }
    }
}
