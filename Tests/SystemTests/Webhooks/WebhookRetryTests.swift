import Foundation
import Testing

/// Delivering again: retries with backoff and `Retry-After`, a hanging receiver, redelivery after a secret's rotation.
@Suite struct WebhookRetryTests: WebhookFixtures {
    @Test func aFailingReceiverIsRetriedUntilItAnswersAndAHangingOneTimesOut() async throws {
        try await Self.withWebhook(events: ["group_channel:message_send"]) { api, receiver, _ in
            receiver.script([.status(500), .delay(.seconds(5)), .status(503, headers: ["Retry-After": "1"])])
            let cast = try await api.cast("whretry", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "persist"], as: cast.session(0))
            #expect(try await eventually(within: .seconds(40)) { receiver.received(about: channel).count == 4 })
            let attempts = receiver.received(about: channel)
            // The same delivery each time: one id, one body.
            #expect(Set(attempts.compactMap { $0.headers["webhook-id"] }).count == 1)
            #expect(Set(attempts.map(\.body)).count == 1)
            let log = try await api.get("\(Self.hook)/deliveries")
            let entry = try #require((log.rawJSON["deliveries"] as? [[String: Any]])?.first)
            #expect(
                try await eventually {
                    let entry = (try await api.get("\(Self.hook)/deliveries").rawJSON["deliveries"] as? [[String: Any]])?.first
                    return entry?["status"] as? String == "delivered" && entry?["attempts"] as? Int == 4
                }, "\(entry)")
        }
    }

    /// Issue 29: `Retry-After: 0`, a negative one or a date in the past no longer makes the
    /// delivery due at the next poll (50 ms here); each wait is at least the schedule's (1 s,
    /// 2 s, 4 s, each with jitter down to half).
    @Test func aRetryAfterShorterThanTheScheduleDoesNotShortenIt() async throws {
        try await Self.withWebhook(
            events: ["group_channel:message_send"], adjust: { $0.webhookDelivery.firstBackoff = .seconds(1) }
        ) { api, receiver, _ in
            receiver.script([
                .status(503, headers: ["Retry-After": "0"]), .status(429, headers: ["Retry-After": "-5"]),
                .status(503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"])
            ])
            let cast = try await api.cast("whsoon", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "patience"], as: cast.session(0))
            #expect(try await eventually(within: .seconds(40)) { receiver.received(about: channel).count == 4 })
            let times = receiver.received(about: channel).map(\.at)
            let waits = zip(times, times.dropFirst()).map { $1 - $0 }
            // The schedule's lower bounds, less a little for rounding to milliseconds.
            for (wait, least) in zip(waits, [0.5, 1, 2]) {
                #expect(wait >= .seconds(least) - .milliseconds(20), "waits: \(waits)")
            }
        }
    }

    @Test func redeliveryAndRotationSignWithTheSameIDAndBothSecrets() async throws {
        try await Self.withWebhook(events: ["group_channel:message_send"]) { api, receiver, _ in
            let cast = try await api.cast("whredo", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "again"], as: cast.session(0))
            #expect(try await eventually { receiver.received(about: channel).count == 1 })
            #expect(
                try await eventually {
                    (try await api.get("\(Self.hook)/deliveries?status=delivered").rawJSON["deliveries"] as? [[String: Any]])?.isEmpty
                        == false
                })
            let old = try #require((try await api.get(Self.hook).rawJSON["webhook"] as? [String: Any])?["secret"] as? String)
            let rotated = try await api.post("\(Self.hook)/rotate_secret")
            let new = try #require((rotated.rawJSON["webhook"] as? [String: Any])?["secret"] as? String)
            #expect(new != old)
            let id = try #require(
                ((try await api.get("\(Self.hook)/deliveries").rawJSON["deliveries"] as? [[String: Any]])?.first)?["delivery_id"] as? Int)
            #expect(try await api.post("\(Self.hook)/deliveries/\(id)/redeliver").status == 200)
            #expect(try await eventually(within: .seconds(30)) { receiver.received(about: channel).count == 2 })
            let (first, second) = (receiver.received(about: channel)[0], receiver.received(about: channel)[1])
            #expect(second.headers["webhook-id"] == first.headers["webhook-id"])
            #expect(second.body == first.body)
            // Signed with the new secret and, for the overlap, the old one.
            #expect(Self.verifies(second, secret: new) && Self.verifies(second, secret: old))
            #expect(!Self.verifies(first, secret: new))
            #expect(try await api.post("\(Self.hook)/deliveries/999999/redeliver").status == 404)
        }
    }
}
