import Crypto
import Foundation
import ParleyContainer
import Postgres
import Testing

/// Webhooks (API.md §10) against a local receiver: both signatures byte for byte, retries with
/// backoff, a hanging receiver, redelivery, secret rotation, a delivery whose instance died,
/// and who may change the settings. Each test has a database of its own: the settings are the
/// whole server's.
@Suite struct WebhookTests {
    static let hook = "/v3/applications/settings/webhook"

    /// A server on its own database whose webhook points at a listening receiver.
    static func withWebhook(
        events: [String] = ["*"], includeMembers: Bool = false, lease: Duration = .seconds(30),
        adjust: @escaping @Sendable (inout Config) -> Void = { _ in },
        _ body: @escaping @Sendable (API, WebhookReceiver, String) async throws -> Void
    ) async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            try await OwnDatabase.with { database in
                try await TestServer.withAPI({ config in
                    config.databaseURL = database
                    config.outboundAllowHosts = ["127.0.0.1:\(port)"]
                    config.webhookDelivery.pollInterval = .milliseconds(50)
                    config.webhookDelivery.firstBackoff = .milliseconds(100)
                    // Long enough for a machine busy with the whole suite; the hanging receiver waits longer.
                    config.webhookDelivery.timeout = .seconds(3)
                    config.webhookDelivery.lease = lease
                    adjust(&config)
                }) { api in
                    let set = try await api.put(
                        hook,
                        [
                            "enabled": true, "url": "http://127.0.0.1:\(port)/hook", "enabled_events": events,
                            "include_members": includeMembers
                        ])
                    #expect(set.status == 200, "\(set.text)")
                    try await body(api, receiver, database)
                }
            }
        }
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
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await api.post(
                            "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "message": "flood \(index)"],
                            as: cast.session(0)
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
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
        try await Self.withWebhook(events: ["group_channel:message_send"]) { first, receiver, database in
            let url = try #require((try await first.get(Self.hook).rawJSON["webhook"] as? [String: Any])?["url"] as? String)
            let hostPort = try #require(URL(string: url)).host! + ":" + String(URL(string: url)!.port!)
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.outboundAllowHosts = [hostPort]
                config.webhookDelivery.pollInterval = .milliseconds(50)
                config.webhookDelivery.timeout = .seconds(3)
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

    @Test func onlyTheAdminChangesTheSettingsAndTheyAreChecked() async throws {
        try await Self.withWebhook { api, _, _ in
            let cast = try await api.cast("whauth", 1)
            for response in [
                try await api.get(Self.hook, as: cast.session(0)),
                try await api.put(Self.hook, ["enabled": false], as: cast.session(0)),
                try await api.post("\(Self.hook)/rotate_secret", as: cast.session(0)),
                try await api.get("\(Self.hook)/deliveries", as: cast.session(0)),
                try await api.post("\(Self.hook)/deliveries/1/redeliver", as: cast.session(0))
            ] {
                #expect(response.status == 403)
            }
            for (body, code) in [
                (["enabled_events": ["group_channel:nonsense"]], 400111),
                (["url": "http://10.0.0.1/hook"], 400111),
                (["url": "http://localhost/hook"], 400111),
                (["url": "http://169.254.169.254/latest"], 400111),
                (["url": "ftp://example.com/"], 400111),
                (["enabled": "yes"], 400104),
                (["enabled": true, "url": ""], 400111)
            ] as [([String: Any], Int)] {
                let response = try await api.put(Self.hook, body)
                #expect(response.status == 400, "\(body)")
                #expect(try response.code == code, "\(body)")
            }
            #expect(try await api.get("\(Self.hook)/deliveries?status=lost").status == 400)
            #expect(try await api.post("\(Self.hook)/deliveries/abc/redeliver").status == 400)
        }
    }
}
