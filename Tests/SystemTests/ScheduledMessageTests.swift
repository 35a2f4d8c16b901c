import Foundation
import ParleyContainer
import Postgres
import Testing

/// Scheduled messages (API.md §13.3): sent once at their time through the live send path, or
/// failed with the reason a live send would have been refused for; changed, canceled, sent now
/// and listed by their sender and the admin only.
@Suite struct ScheduledMessageTests {
    /// Servers that send due messages within 50 ms and accept any time from now on.
    static func prompt(_ config: inout Config) {
        config.limits.scheduleMinLeadMillis = 0
        config.scheduledDelivery.pollInterval = .milliseconds(50)
    }

    static var now: Int { Int(Date.now.timeIntervalSince1970 * 1000) }

    static func schedule(_ api: API, _ channel: String, _ text: String, at time: Int, as credential: Credential) async throws -> Int {
        let created = try await api.post(
            "/v3/group_channels/\(channel)/scheduled_messages", ["message": text, "scheduled_at": time], as: credential)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.rawJSON["status"] as? String == "pending")
        return created.rawJSON["scheduled_message_id"] as? Int ?? -1
    }

    /// Makes the scheduled messages due now, in `database` (the test run's common one by default):
    /// what a test then checks does not depend on how long scheduling them took.
    static func makeDue(_ ids: [Int], in database: String? = nil) throws {
        let connection = try PostgresConnection(conninfo: try database ?? TestServer.databaseURL, logger: TestServer.logger)
        _ = try connection.query(
            "UPDATE scheduled_messages SET scheduled_at = $2 WHERE scheduled_message_id = ANY($1::bigint[])",
            [ids.map(String.init), Int64(now)])
    }

    /// Waits until the scheduled message is no longer pending; returns it.
    static func settled(_ api: API, _ channel: String, _ id: Int) async throws -> [String: Any] {
        var shown: [String: Any] = [:]
        try await eventually(within: .seconds(20), every: .milliseconds(25)) {
            shown = try await api.get("/v3/group_channels/\(channel)/scheduled_messages/\(id)").rawJSON
            return shown["status"] as? String != "pending"
        }
        return shown
    }

    static func texts(_ api: API, _ channel: String) async throws -> [String] {
        let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=0&next_limit=100&prev_limit=0")
        return (history.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test func aScheduledMessageIsSentOnceAtItsTime() async throws {
        try await TestServer.withAPI(Self.prompt) { api in
            let cast = try await api.cast("sch", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let socket = try await api.events(cast.tokens[cast[1]]!)
            let time = Self.now + 3_000
            let id = try await Self.schedule(api, channel, "later", at: time, as: cast.session(0))
            #expect(try await Self.texts(api, channel).isEmpty)
            let sent = try await Self.settled(api, channel, id)
            #expect(sent["status"] as? String == "sent", "\(sent)")
            let messageID = sent["message_id"] as? Int ?? 0
            let received = try await socket.waitForEvent("message_received")
            let message = received["data"] as? [String: Any]
            #expect(message?["message_id"] as? Int == messageID)
            #expect((message?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            // At its time, within a second.
            let createdAt = message?["created_at"] as? Int ?? 0
            #expect(createdAt >= time && createdAt <= time + 1_000, "sent at \(createdAt), due \(time)")
            #expect(try await Self.texts(api, channel) == ["later"])
            socket.close()
        }
    }

    @Test func whatALiveSendWouldBeRefusedFailsWithItsReason() async throws {
        try await TestServer.withAPI(Self.prompt) { api in
            let cast = try await api.cast("schf", 6)
            var cases: [(channel: String, id: Int, code: Int)] = []
            let time = Self.now + 3_600_000
            for (index, code) in [400108, 900100, 900041, 900050, 400201].enumerated() {
                let channel = try await api.createChannel(["user_ids": [cast[index], cast[5]], "operator_ids": [cast[5]]])
                cases.append((channel, try await Self.schedule(api, channel, "never", at: time, as: cast.session(index)), code))
            }
            let base = "/v3/group_channels"
            #expect(try await api.put("\(base)/\(cases[0].channel)/leave", ["user_ids": [cast[0]]]).status == 200)
            #expect(try await api.post("\(base)/\(cases[1].channel)/ban", ["user_id": cast[1]]).status == 200)
            #expect(try await api.post("\(base)/\(cases[2].channel)/mute", ["user_id": cast[2]]).status == 200)
            #expect(try await api.put("\(base)/\(cases[3].channel)/freeze", ["freeze": true]).status == 200)
            #expect(try await api.delete("\(base)/\(cases[4].channel)").status == 200)
            try Self.makeDue(cases.map(\.id))
            for (channel, id, code) in cases {
                let failed = try await Self.settled(api, channel, id)
                #expect(failed["status"] as? String == "failed", "\(failed)")
                #expect(failed["failure_code"] as? Int == code, "\(failed)")
                #expect((failed["failure_reason"] as? String)?.isEmpty == false)
                #expect(failed["message_id"] as? Int == 0)
            }
            for (channel, _, _) in cases.prefix(4) { #expect(try await Self.texts(api, channel).isEmpty) }
        }
    }

    /// An instance that sent the message and died before recording it, then a refusal: the
    /// message stands and the scheduled message is `sent`, not `failed`.
    @Test func aSendThatCommittedBeforeARefusalCountsAsSent() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("schd", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let id = try await Self.schedule(api, channel, "once", at: Self.now + 3_600_000, as: cast.session(0))
            // What the dead instance's send committed: the message under the scheduled send's dedup id.
            let earlier = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message": "once", "dedup_id": "scheduled-\(id)"], as: cast.session(0))
            #expect(earlier.status == 201, "\(earlier.text)")
            #expect(try await api.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[0]]]).status == 200)
            let now = try await api.post("/v3/group_channels/\(channel)/scheduled_messages/\(id)/send_now")
            #expect(now.status == 200, "\(now.text)")
            #expect(now.rawJSON["status"] as? String == "sent")
            #expect(now.rawJSON["message_id"] as? Int == earlier.rawJSON["message_id"] as? Int)
            #expect(try await Self.texts(api, channel) == ["once"])
        }
    }

    @Test func theSenderChangesCancelsAndSendsNowAndNobodyElseSeesIt() async throws {
        try await TestServer.withAPI({ $0.limits.scheduledPerChannel = 2 }) { api in
            let cast = try await api.cast("schc", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/scheduled_messages"
            let hour = Self.now + 3_600_000
            let id = try await Self.schedule(api, channel, "first", at: hour, as: cast.session(0))
            // Another member, and an outsider, see nothing of it.
            #expect(try await api.get("\(base)/\(id)", as: cast.session(1)).code == 400201)
            #expect(try await api.delete("\(base)/\(id)", as: cast.session(2)).code == 400201)
            let changed = try await api.put("\(base)/\(id)", ["message": "changed", "scheduled_at": hour + 60_000], as: cast.session(0))
            #expect(changed.status == 200, "\(changed.text)")
            #expect(changed.rawJSON["message"] as? String == "changed")
            #expect(changed.rawJSON["scheduled_at"] as? Int == hour + 60_000)
            // Sendbird's method for the same change (issue 52.1).
            let posted = try await api.post("\(base)/\(id)", ["message": "posted"], as: cast.session(0))
            #expect(posted.status == 200 && posted.rawJSON["message"] as? String == "posted", "\(posted.text)")
            #expect(try await api.post("\(base)/\(id)", ["message": "x"], as: cast.session(1)).code == 400201)
            let second = try await Self.schedule(api, channel, "second", at: hour, as: cast.session(1))
            // The channel's limit (2 here) counts pending ones only.
            #expect(try await api.post(base, ["message": "third", "scheduled_at": hour], as: cast.session(0)).code == 400203)
            let canceled = try await api.delete("\(base)/\(id)", as: cast.session(0))
            #expect(canceled.rawJSON["status"] as? String == "canceled")
            #expect(try await api.put("\(base)/\(id)", ["message": "again"], as: cast.session(0)).code == 400111)
            #expect(try await api.post("\(base)/\(id)/send_now", as: cast.session(0)).code == 400111)
            // Sent now, by the live path.
            let now = try await api.post("\(base)/\(second)/send_now", as: cast.session(1))
            #expect(now.status == 200, "\(now.text)")
            #expect(now.rawJSON["status"] as? String == "sent")
            #expect(try await Self.texts(api, channel) == ["second"])

            // Listing: a session user sees their own; the admin filters by anything.
            let own = try await api.get("/v3/scheduled_messages", as: cast.session(0))
            #expect((own.rawJSON["scheduled_messages"] as? [[String: Any]])?.map { $0["scheduled_message_id"] as? Int } == [id])
            #expect(try await api.get("/v3/scheduled_messages?sender_id=\(cast[1])", as: cast.session(0)).code == 400108)
            let sent = try await api.get("/v3/scheduled_messages?channel_url=\(channel)&status=sent")
            #expect((sent.rawJSON["scheduled_messages"] as? [[String: Any]])?.map { $0["scheduled_message_id"] as? Int } == [second])
            #expect(try await api.get("/v3/scheduled_messages/count?channel_url=\(channel)").rawJSON["count"] as? Int == 2)
            #expect(try await api.get("/v3/scheduled_messages?status=later").code == 400111)
            // `status[]` as URL libraries send it, brackets percent-encoded.
            let encoded = try await api.get("/v3/scheduled_messages?channel_url=\(channel)&status%5B%5D=sent")
            #expect((encoded.rawJSON["scheduled_messages"] as? [[String: Any]])?.map { $0["scheduled_message_id"] as? Int } == [second])
            #expect(try await api.get("/v3/scheduled_messages?status%5B%5D=later").code == 400111)
        }
    }

    @Test func badSchedulesAreRefusedAndStoreNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("schb", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let path = "/v3/group_channels/\(channel)/scheduled_messages"
            let now = Self.now
            let refusals: [([String: Any], Credential, Int)] = [
                (["message": "soon", "scheduled_at": now + 60_000], cast.session(0), 400111),
                (["message": "far", "scheduled_at": now + 31 * 86_400_000], cast.session(0), 400111),
                (["message": "when?"], cast.session(0), 400105),
                (["message": "x", "scheduled_at": "noon"], cast.session(0), 400101),
                (["message": "x", "scheduled_at": now + 600_000, "dedup_id": "d"], cast.session(0), 400111),
                (["message_type": "ADMM", "message": "x", "scheduled_at": now + 600_000], .admin, 400111),
                (["message": "x", "scheduled_at": now + 600_000, "user_id": cast[1]], cast.session(0), 400108),
                (["message": "x", "scheduled_at": now + 600_000], cast.session(2), 400201),
                (
                    ["message_type": "FILE", "url": "https://e.test/f", "target_langs": ["es"], "scheduled_at": now + 600_000],
                    cast.session(0), 400111
                )
            ]
            for (body, credential, code) in refusals {
                let refused = try await api.post(path, body, as: credential)
                #expect(try refused.code == code, "\(body): \(refused.text)")
            }
            #expect(try await api.get("/v3/scheduled_messages/count?channel_url=\(channel)").rawJSON["count"] as? Int == 0)
            // An ephemeral channel stores no message a second attempt could find.
            let ephemeral = try await api.createChannel(["user_ids": [cast[0]], "is_ephemeral": true])
            let refused = try await api.post(
                "/v3/group_channels/\(ephemeral)/scheduled_messages", ["message": "x", "scheduled_at": now + 600_000], as: cast.session(0))
            #expect(try refused.code == 400111, "\(refused.text)")
        }
    }
}
