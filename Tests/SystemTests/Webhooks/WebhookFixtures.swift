import Crypto
import Foundation
import ParleyContainer
import Testing

/// What the webhook suites share: a server whose webhook points at a local receiver, on a database
/// of its own (the settings are the whole server's), and the receiver's check of the signatures.
protocol WebhookFixtures: SendableMetatype {}

extension WebhookFixtures {
    static var hook: String { "/v3/applications/settings/webhook" }

    /// A server on its own database whose webhook points at a listening receiver.
    static func withWebhook(
        events: [String] = ["*"], includeMembers: Bool = false, lease: Duration = .seconds(30),
        adjust: @escaping @Sendable (inout Config) -> Void = { _ in },
        _ body: @escaping @Sendable (API, WebhookReceiver, String) async throws -> Void
    ) async throws {
        try await withReceiver(lease: lease, adjust: adjust) { api, receiver, url, database in
            let set = try await api.put(
                hook, ["enabled": true, "url": url, "enabled_events": events, "include_members": includeMembers])
            #expect(set.status == 200, "\(set.text)")
            try await body(api, receiver, database)
        }
    }

    /// A server on its own database (webhook settings and bots are the whole server's) that may
    /// reach a listening receiver, whose URL it is given, with quick retries.
    static func withReceiver(
        lease: Duration = .seconds(30), adjust: @escaping @Sendable (inout Config) -> Void = { _ in },
        _ body: @escaping @Sendable (API, WebhookReceiver, String, String) async throws -> Void
    ) async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            try await OwnDatabase.with { database in
                try await TestServer.withAPI({ config in
                    delivering(to: port, on: database, lease: lease, &config)
                    adjust(&config)
                }) { api in try await body(api, receiver, "http://127.0.0.1:\(port)/hook", database) }
            }
        }
    }

    /// A server's settings for delivering to the receiver on `port` from `database`, with quick retries.
    static func delivering(to port: Int, on database: String, lease: Duration = .seconds(30), _ config: inout Config) {
        config.databaseURL = database
        config.outboundAllowHosts = ["127.0.0.1:\(port)"]
        config.webhookDelivery.pollInterval = .milliseconds(50)
        config.webhookDelivery.firstBackoff = .milliseconds(100)
        // Long enough for a machine busy with the whole suite; the hanging receiver waits longer.
        config.webhookDelivery.timeout = .seconds(3)
        config.webhookDelivery.lease = lease
    }

    static func secretKey(_ secret: String) -> SymmetricKey {
        SymmetricKey(data: Data(base64Encoded: String(secret.dropFirst("whsec_".count)))!)
    }

    /// The receiver's check of Standard Webhooks: some `v1,` signature matches under `secret`.
    static func verifies(_ delivery: WebhookReceiver.Received, secret: String) -> Bool {
        guard let id = delivery.headers["webhook-id"], let timestamp = delivery.headers["webhook-timestamp"],
            let signatures = delivery.headers["webhook-signature"]
        else { return false }
        let expected = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).\(delivery.body)".utf8), using: secretKey(secret))
        return signatures.split(separator: " ").contains { $0 == "v1," + Data(expected).base64EncodedString() }
    }
}
