import Foundation
import ParleyContainer
import Postgres
import Testing

/// Several instances on one delivery queue: a dead instance's claim lapses, and each event is delivered once.
@Suite struct WebhookInstanceTests: WebhookFixtures {
    /// An instance claimed a delivery and died before recording it: once the claim lapses,
    /// another instance delivers it.
    @Test func aDeliveryClaimedByADeadInstanceIsDeliveredByAnother() async throws {
        try await Self.withWebhook(events: ["group_channel:message_send"], lease: .seconds(1)) { api, receiver, database in
            // The dead instance's claim: taken before this server's dispatcher sees the row.
            let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
            _ = try connection.execute("UPDATE webhook_settings SET enabled = false")
            let cast = try await api.cast("whdead", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "orphan"], as: cast.session(0))
            _ = try connection.execute(
                "INSERT INTO webhook_deliveries (event_id, category, event_type, channel_url, channel_type, event_data, event_created_at, next_attempt_at, created_at) SELECT event_id, 'group_channel:message_send', type, channel_url, channel_type, data, created_at, created_at, created_at FROM events WHERE channel_url = '\(channel)' AND type = 'message_received'"
            )
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            _ = try connection.execute("UPDATE webhook_deliveries SET claimed_until = \(now + 1500), attempts = 1")
            _ = try connection.execute("UPDATE webhook_settings SET enabled = true")
            try await Task.sleep(for: .milliseconds(700))
            #expect(receiver.received(about: channel).isEmpty, "delivered while another instance held it")
            #expect(try await eventually(within: .seconds(10)) { receiver.received(about: channel).count == 1 })
        }
    }

    /// Two instances on one database drain one queue: every delivery arrives once, whichever
    /// instance claimed it (leases and SKIP LOCKED, no state in a process).
    @Test func twoInstancesDeliverEachEventOnce() async throws {
        // Exactly once holds while no attempt times out (a timed-out one is sent again: at least
        // once): a timeout a machine busy with the whole suite does not reach.
        let patient: @Sendable (inout Config) -> Void = { $0.webhookDelivery.timeout = .seconds(15) }
        try await Self.withWebhook(events: ["group_channel:message_send"], adjust: patient) { first, receiver, database in
            let url = try #require((try await first.get(Self.hook).rawJSON["webhook"] as? [String: Any])?["url"] as? String)
            let hostPort = try #require(URL(string: url)).host! + ":" + String(URL(string: url)!.port!)
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.outboundAllowHosts = [hostPort]
                config.webhookDelivery.pollInterval = .milliseconds(50)
                patient(&config)
            }) { second in
                let cast = try await first.cast("whtwo", 1)
                let channel = try await first.createChannel(["user_ids": [cast[0]]])
                for index in 0..<40 {
                    let api = index.isMultiple(of: 2) ? first : second
                    let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "m\(index)"], as: cast.session(0))
                    #expect(sent.status == 201)
                }
                #expect(try await eventually(within: .seconds(20)) { receiver.received(about: channel).count >= 40 })
                try await Task.sleep(for: .milliseconds(500))
                let ids = receiver.received(about: channel).compactMap { $0.headers["webhook-id"] }
                #expect(ids.count == 40, "no delivery twice")
                #expect(Set(ids).count == 40)
                let texts = Set(
                    receiver.received(about: channel).compactMap { ($0.json["payload"] as? [String: Any])?["message"] as? String })
                #expect(texts == Set((0..<40).map { "m\($0)" }))
            }
        }
    }
}
