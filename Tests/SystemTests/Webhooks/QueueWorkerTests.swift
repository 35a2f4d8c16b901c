import Foundation
import ParleyContainer
import Testing

/// API-only instances (`PARLEY_QUEUE_WORKERS=false`) answer every request and leave the shared
/// queues to the instances that run their workers.
@Suite struct QueueWorkerTests: WebhookFixtures {
    @Test func anAPIOnlyInstanceLeavesTheQueuesToAWorkerInstance() async throws {
        let apiOnly: @Sendable (inout Config) -> Void = { config in
            ScheduledMessageTests.prompt(&config)
            config.queueWorkers = false
        }
        try await Self.withReceiver(adjust: apiOnly) { api, receiver, url, database in
            let set = try await api.put(Self.hook, ["enabled": true, "url": url, "enabled_events": ["group_channel:message_send"]])
            #expect(set.status == 200, "\(set.text)")
            let cast = try await api.cast("qwork", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "now"], as: cast.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let id = try await ScheduledMessageTests.schedule(
                api, channel, "later", at: ScheduledMessageTests.now + 3_600_000, as: cast.session(1))
            try ScheduledMessageTests.makeDue([id], in: database)
            // Past several of a worker's polls (50 ms each): nothing is delivered, nothing is sent.
            try await Task.sleep(for: .milliseconds(1500))
            #expect(receiver.received(about: channel).isEmpty, "an API-only instance delivered a webhook")
            let waiting = try await api.get("/v3/group_channels/\(channel)/scheduled_messages/\(id)")
            #expect(waiting.rawJSON["status"] as? String == "pending", "\(waiting.text)")
            #expect(try await ScheduledMessageTests.texts(api, channel) == ["now"])

            // A worker instance on the same database takes both over, once each.
            let port = URLComponents(string: url)?.port ?? 0
            try await TestServer.withAPI({ config in
                ScheduledMessageTests.prompt(&config)
                Self.delivering(to: port, on: database, &config)
            }) { _ in
                let settled = try await ScheduledMessageTests.settled(api, channel, id)
                #expect(settled["status"] as? String == "sent", "\(settled)")
                #expect(try await eventually(within: .seconds(20)) { receiver.received(about: channel).count == 2 })
            }
            #expect(try await ScheduledMessageTests.texts(api, channel) == ["now", "later"])
            #expect(receiver.received(about: channel).count == 2)
        }
    }
}
