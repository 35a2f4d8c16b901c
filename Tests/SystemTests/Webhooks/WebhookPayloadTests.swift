import Crypto
import Foundation
import Testing

/// What a delivery carries: the subscribed categories only, in Sendbird's payloads, signed both ways.
@Suite struct WebhookPayloadTests: WebhookFixtures {
    @Test func deliveriesCarrySendbirdsPayloadAndBothSignatures() async throws {
        try await Self.withWebhook(events: ["group_channel:message_send"], includeMembers: true) { api, receiver, _ in
            let secret = try #require((try await api.get(Self.hook).rawJSON["webhook"] as? [String: Any])?["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            let cast = try await api.cast("wh", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Team"])
            let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "hello hook"], as: cast.session(0))
            #expect(sent.status == 201)
            #expect(try await eventually { !receiver.received(about: channel).isEmpty })
            let deliveries = receiver.received(about: channel)
            // Only the subscribed category: the channel's creation (join) was not sent. (An
            // attempt cut off by a loaded machine is sent again, with the same id.)
            #expect(Set(deliveries.compactMap { $0.json["category"] as? String }) == ["group_channel:message_send"])
            #expect(Set(deliveries.compactMap { $0.headers["webhook-id"] }).count == 1)
            let delivery = try #require(deliveries.first)
            #expect(Self.verifies(delivery, secret: secret))
            let sendbird = HMAC<SHA256>.authenticationCode(
                for: Data(delivery.body.utf8), using: SymmetricKey(data: Data(TestServer.apiToken.utf8)))
            #expect(delivery.headers["x-sendbird-signature"] == sendbird.map { String(format: "%02x", $0) }.joined())
            #expect(delivery.headers["content-type"] == "application/json")
            let json = delivery.json
            #expect(json["category"] as? String == "group_channel:message_send")
            #expect((json["payload"] as? [String: Any])?["message"] as? String == "hello hook")
            #expect((json["sender"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((json["channel"] as? [String: Any])?["name"] as? String == "Team")
            #expect((json["members"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String }.sorted() == [cast[0], cast[1]].sorted())
            // No credentials of any kind in a payload.
            #expect(!delivery.body.contains(TestServer.apiToken))
            #expect(!delivery.body.contains(cast.tokens[cast[0]]!))
            // Recorded once the round's attempts are done.
            var entry: [String: Any] = [:]
            #expect(
                try await eventually {
                    entry =
                        (try await api.get("\(Self.hook)/deliveries?status=delivered").rawJSON["deliveries"] as? [[String: Any]])?.first
                        ?? [:]
                    return !entry.isEmpty
                })
            #expect(entry["webhook_id"] as? String == delivery.headers["webhook-id"])
            #expect((entry["attempts"] as? Int ?? 0) >= 1)
            #expect(entry["last_status_code"] as? Int == 200)
        }
    }

    /// `group_channel:changed` lists what the update changed, with old and new values typed as in
    /// the channel; an unchanged field is not listed.
    @Test func aChannelUpdateListsItsChanges() async throws {
        try await Self.withWebhook(events: ["group_channel:changed"]) { api, receiver, _ in
            let cast = try await api.cast("whc", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Before", "custom_type": "kept"])
            let updated = try await api.put(
                "/v3/group_channels/\(channel)", ["name": "After", "is_public": true, "custom_type": "kept"])
            #expect(updated.status == 200, "\(updated.text)")
            #expect(try await eventually { !receiver.received(about: channel).isEmpty })
            let json = try #require(receiver.received(about: channel).first).json
            #expect(json["category"] as? String == "group_channel:changed")
            let changes = try #require(json["changes"] as? [[String: Any]])
            #expect(changes.count == 2, "\(changes)")
            let name = changes.first { $0["key"] as? String == "name" }
            #expect(name?["old"] as? String == "Before")
            #expect(name?["new"] as? String == "After")
            let isPublic = changes.first { $0["key"] as? String == "is_public" }
            #expect(isPublic?["old"] as? Bool == false)
            #expect(isPublic?["new"] as? Bool == true)
            #expect((json["channel"] as? [String: Any])?["name"] as? String == "After")
        }
    }

    /// The categories of changes no socket hears of: a channel's creation, blocks and reports,
    /// each in Sendbird's shape and only when subscribed.
    @Test func creationBlocksAndReportsReachTheWebhook() async throws {
        let categories = ["group_channel:create", "open_channel:create", "user:block", "user:unblock", "message:report"]
        try await Self.withWebhook(events: categories) { api, receiver, _ in
            let cast = try await api.cast("whx", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Fresh"], as: cast.session(0))
            let open = try await api.post("/v3/open_channels", ["name": "Lobby"])
            let openURL = try #require(open.rawJSON["channel_url"] as? String)
            #expect(try await api.post("/v3/users/\(cast[0])/block", ["target_id": cast[1]], as: cast.session(0)).status == 200)
            #expect(try await api.delete("/v3/users/\(cast[0])/block/\(cast[1])", as: cast.session(0)).status == 200)
            let sent = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "message": "spam spam"], as: cast.session(0))
            let messageID = try #require(sent.rawJSON["message_id"] as? Int)
            let report = try await api.post(
                "/v3/report/group_channels/\(channel)/messages/\(messageID)", ["report_category": "spam", "report_description": "ads"],
                as: cast.session(1))
            #expect(report.status == 201, "\(report.text)")
            // Every category once: no message_send, join or other unsubscribed one.
            #expect(try await eventually(within: .seconds(30)) { receiver.received.count >= categories.count })
            try await Task.sleep(for: .milliseconds(300))
            let byCategory = Dictionary(grouping: receiver.received.map(\.json)) { $0["category"] as? String ?? "" }
            #expect(Set(byCategory.keys) == Set(categories), "\(byCategory.keys)")
            let created = try #require(byCategory["group_channel:create"]?.first)
            #expect((created["channel"] as? [String: Any])?["channel_url"] as? String == channel)
            #expect((created["inviter"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((byCategory["open_channel:create"]?.first?["channel"] as? [String: Any])?["channel_url"] as? String == openURL)
            for category in ["user:block", "user:unblock"] {
                let json = try #require(byCategory[category]?.first)
                #expect((json["blocker"] as? [String: Any])?["user_id"] as? String == cast[0])
                #expect((json["blockees"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String } == [cast[1]])
            }
            let reported = try #require(byCategory["message:report"]?.first)
            #expect(reported["report_category"] as? String == "spam")
            #expect(reported["report_description"] as? String == "ads")
            #expect((reported["reporting_user"] as? [String: Any])?["user_id"] as? String == cast[1])
            #expect((reported["offending_user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((reported["reported_message"] as? [String: Any])?["message"] as? String == "spam spam")
            #expect((reported["channel"] as? [String: Any])?["channel_url"] as? String == channel)
        }
    }

    /// Flood protection's refusals raise `alert:user_message_rate_limit_exceeded`, at most once a
    /// minute per sender and channel; the refused sends themselves are not announced.
    @Test func floodProtectionRaisesOneAlertAMinute() async throws {
        let categories = ["alert:user_message_rate_limit_exceeded", "group_channel:message_send"]
        try await Self.withWebhook(events: categories, adjust: { $0.limits.messagesPerSecond = 1 }) { api, receiver, _ in
            let cast = try await api.cast("whf", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            // At once, so that a busy machine does not spread them over more than a second.
            let statuses = try await api.burst(6) { client, index in
                try await client.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "message": "flood \(index)"], as: cast.session(0)
                ).status
            }
            #expect(statuses.contains(429), "\(statuses)")
            let accepted = statuses.filter { $0 == 200 || $0 == 201 }.count
            #expect(try await eventually(within: .seconds(30)) { receiver.received(about: channel).count >= accepted + 1 })
            try await Task.sleep(for: .milliseconds(300))
            let byCategory = Dictionary(grouping: receiver.received(about: channel).map(\.json)) { $0["category"] as? String ?? "" }
            #expect(byCategory["group_channel:message_send"]?.count == accepted)
            let alerts = byCategory["alert:user_message_rate_limit_exceeded"] ?? []
            #expect(alerts.count == 1, "\(alerts)")
            #expect((alerts.first?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((alerts.first?["channel"] as? [String: Any])?["channel_url"] as? String == channel)
        }
    }
}
