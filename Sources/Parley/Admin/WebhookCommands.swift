import ArgumentParser
import ParleyCore

/// `parley webhook list|redeliver`.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Inspect and redeliver webhook deliveries.", subcommands: [List.self, Redeliver.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List webhook deliveries, newest first.")
        @Option(help: "pending, delivered or failed (default: all).") var status: String?
        @Option(help: "Deliveries per page (1-100).") var limit = 20
        @Option(help: "The page token a previous list printed.") var next: String?

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be 1...100.") }
            if let status, WebhookDeliveryStatus(rawValue: status) == nil {
                throw ValidationError("--status must be pending, delivered or failed.")
            }
        }

        func run() async throws {
            try await AdminSession.run { container in
                let page = try await container.webhooks.deliveries(
                    .admin, status: status.flatMap(WebhookDeliveryStatus.init(rawValue:)), limit: limit, pageToken: next)
                print(
                    AdminFormat.table(
                        ["ID", "STATUS", "CATEGORY", "ATTEMPTS", "LAST ANSWER", "CREATED"],
                        page.items.map {
                            [
                                String($0.deliveryID), $0.status.rawValue, $0.category, String($0.attempts),
                                $0.lastStatusCode.map(String.init) ?? $0.lastError.map { String($0.prefix(40)) } ?? "-",
                                AdminFormat.time($0.createdAt)
                            ]
                        }))
                AdminFormat.printNext(page.next)
            }
        }
    }

    struct Redeliver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a delivery again (a failed one, after fixing the receiver): it is due at once, for any instance.")
        @Argument(help: "The delivery's id.") var deliveryID: Int64

        func run() async throws {
            try await AdminSession.run { container in
                let delivery = try await container.webhooks.redeliver(.admin, deliveryID)
                print("delivery \(delivery.deliveryID) (\(delivery.category)) is \(delivery.status.rawValue) again")
            }
        }
    }
}
