import Foundation
import ParleyContainer
import Testing

/// Announcements (API.md §14.4): scheduled, sent by a leased job through the send path to users
/// (in their 1-to-1 channels with the sender, made when missing) or channels, paused, resumed and
/// canceled, with open figures from read positions.
@Suite struct AnnouncementTests {
    /// A server that runs jobs, on a database of its own (jobs are the whole server's).
    static func withServer(batch: Int = 200, _ body: @escaping @Sendable (API) async throws -> Void) async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.jobs.enabled = true
                config.jobs.pollInterval = .milliseconds(50)
                config.jobs.batchSize = batch
            }) { api in try await body(api) }
        }
    }

    static var nowMillis: Int { Int(Date.now.timeIntervalSince1970 * 1000) }

    static func waitForStatus(_ api: API, _ id: String, _ status: String) async throws -> [String: Any] {
        var latest: [String: Any] = [:]
        let reached = try await eventually(within: .seconds(20)) {
            latest = try await api.get("/v3/announcements/\(id)").rawJSON
            return latest["status"] as? String == status
        }
        #expect(reached, "\(latest)")
        return latest
    }

    static func lastMessage(_ api: API, _ channel: String, as credential: Credential) async throws -> [String: Any]? {
        let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max / 2)&prev_limit=1", as: credential)
        return (history.rawJSON["messages"] as? [[String: Any]])?.last
    }

    @Test func usersGetItInTheirChannelWithTheSenderAndOpensAreCounted() async throws {
        try await Self.withServer { api in
            let cast = try await api.cast("an", 4)
            let (sender, ann, bob, carl) = (cast[0], cast[1], cast[2], cast[3])
            // Carl and the sender have a 1-to-1 channel already: it is used, not made again.
            let existing = try await api.createChannel(["user_ids": [sender, carl], "is_distinct": true])
            let scheduled = try await api.post(
                "/v3/announcements",
                [
                    "message": ["type": "MESG", "user_id": sender, "content": "Big news"],
                    "target_at": "target_users_included_new_channels",
                    "target_list": [ann, bob, carl], "target_channel_type": "distinct", "announcement_group": "launch",
                    "create_channel_options": ["name": "News", "distinct": true]
                ])
            #expect(scheduled.status == 200, "\(scheduled.text)")
            let id = try #require(scheduled.rawJSON["unique_id"] as? String)
            let done = try await Self.waitForStatus(api, id, "completed")
            #expect(done["target_user_count"] as? Int == 3)
            #expect(done["sent_user_count"] as? Int == 3)
            #expect(done["sent_channel_count"] as? Int == 3)
            #expect((done["completed_at"] as? Int ?? 0) > 0)
            #expect(try await Self.lastMessage(api, existing, as: cast.session(3))?["message"] as? String == "Big news")
            let annChannels = try await api.get("/v3/users/\(ann)/my_group_channels?show_member=true", as: cast.session(1))
            let made = try #require((annChannels.rawJSON["channels"] as? [[String: Any]])?.first)
            #expect(made["name"] as? String == "News")
            let madeURL = try #require(made["channel_url"] as? String)
            let received = try #require(try await Self.lastMessage(api, madeURL, as: cast.session(1)))
            #expect(received["message"] as? String == "Big news")
            #expect((received["user"] as? [String: Any])?["user_id"] as? String == sender)

            // Nobody has read it yet; then Ann does.
            var status = try await api.get("/v3/announcement_open_status/\(id)")
            #expect((status.rawJSON["open_status"] as? [[String: Any]])?.count == 3)
            #expect((status.rawJSON["open_status"] as? [[String: Any]])?.allSatisfy { $0["has_opened"] as? Bool == false } == true)
            #expect(try await api.put("/v3/group_channels/\(madeURL)/messages/mark_as_read", [:], as: cast.session(1)).status == 200)
            status = try await api.get("/v3/announcement_open_status/\(id)?has_opened=true")
            let opened = try #require(status.rawJSON["open_status"] as? [[String: Any]])
            #expect(opened.map { $0["user_id"] as? String } == [ann])
            #expect((opened.first?["open_at"] as? Int ?? 0) >= (opened.first?["sent_at"] as? Int ?? .max))
            let view = try await api.get("/v3/announcements/\(id)").rawJSON
            #expect(view["open_count"] as? Int == 1)
            #expect(abs((view["open_rate"] as? Double ?? 0) - 1.0 / 3.0) < 0.001)
            let rate = try await api.get("/v3/announcement_open_rate/\(id)").rawJSON
            #expect((rate["open_counts"] as? [Int])?.count == 24)
            #expect((rate["cumulative_open_counts"] as? [Int])?.last == 1)
            let groupRate = try await api.get("/v3/announcement_open_rate_by_group/launch").rawJSON
            #expect((groupRate["cumulative_open_counts"] as? [Int])?.last == 1)
            #expect((try await api.get("/v3/announcement_group").rawJSON["announcement_groups"] as? [String]) == ["launch"])
            let today = ISO8601DateFormatter.string(from: .now, timeZone: .gmt, formatOptions: [.withFullDate])
            let daily = try await api.get("/v3/announcement_stats/daily?start_date=\(today)&end_date=\(today)").rawJSON
            let day = try #require((daily["statistics"] as? [[String: Any]])?.first)
            #expect(day["date_range"] as? String == today)
            #expect(day["total_announcement_count"] as? Int == 1)
            #expect(day["completed_announcement_count"] as? Int == 1)
            #expect(day["sent_user_count"] as? Int == 3)
            #expect(day["open_count"] as? Int == 1)
            let month = String(today.prefix(7))
            let monthly = try await api.get("/v3/announcement_stats/monthly?start_month=\(month)&end_month=\(month)").rawJSON
            #expect((monthly["statistics"] as? [[String: Any]])?.first?["total_announcement_count"] as? Int == 1)
            let weekly = try await api.get("/v3/announcement_stats/weekly?start_week=\(today)&end_week=\(today)").rawJSON
            #expect((weekly["statistics"] as? [[String: Any]])?.first?["sent_user_count"] as? Int == 3)
        }
    }

    /// A scheduled announcement waits, pauses, resumes and runs when its time is moved to now;
    /// a channel whose member the sender is not is skipped, not failed.
    @Test func aScheduledAnnouncementWaitsPausesResumesAndSkipsChannelsItCannotReach() async throws {
        try await Self.withServer { api in
            let cast = try await api.cast("as", 3)
            let reachable = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let elsewhere = try await api.createChannel(["user_ids": [cast[1], cast[2]]])
            let scheduled = try await api.post(
                "/v3/announcements",
                [
                    "message": ["type": "MESG", "user_id": cast[0], "content": "Later"], "target_at": "target_channels",
                    "target_list": [reachable, elsewhere], "target_channel_type": "all", "unique_id": "later-1",
                    "scheduled_at": Self.nowMillis + 3_600_000
                ])
            #expect(scheduled.status == 200, "\(scheduled.text)")
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await api.get("/v3/announcements/later-1").rawJSON["status"] as? String == "scheduled")
            #expect(try await Self.lastMessage(api, reachable, as: cast.session(1)) == nil)
            #expect(try await api.put("/v3/announcements/later-1", ["action": "pause"]).rawJSON["status"] as? String == "paused")
            // A paused one cannot be changed, only resumed or canceled.
            #expect(try await api.put("/v3/announcements/later-1", ["message.content": "Changed"]).status == 400)
            #expect(try await api.put("/v3/announcements/later-1", ["action": "resume"]).rawJSON["status"] as? String == "scheduled")
            let moved = try await api.put("/v3/announcements/later-1", ["scheduled_at": Self.nowMillis, "message.content": "Now"])
            #expect(moved.status == 200, "\(moved.text)")
            let done = try await Self.waitForStatus(api, "later-1", "completed")
            #expect(done["sent_channel_count"] as? Int == 1)
            #expect(done["target_channel_count"] as? Int == 2)
            #expect(try await Self.lastMessage(api, reachable, as: cast.session(1))?["message"] as? String == "Now")
            #expect(try await Self.lastMessage(api, elsewhere, as: cast.session(1)) == nil)
            let cancel = try await api.put("/v3/announcements/later-1", ["action": "cancel"])
            #expect(cancel.status == 400)
            #expect(try cancel.code == 400111)
            // Canceled before its time, it never sends.
            let other = try await api.post(
                "/v3/announcements",
                [
                    "message": ["type": "ADMM", "user_id": cast[0], "content": "Never"], "target_at": "target_channels",
                    "target_list": [elsewhere], "target_channel_type": "all", "unique_id": "never-1",
                    "scheduled_at": Self.nowMillis + 4_000
                ])
            #expect(other.status == 200)
            #expect(try await api.put("/v3/announcements/never-1", ["action": "cancel"]).rawJSON["status"] as? String == "canceled")
            try await Task.sleep(for: .milliseconds(4_500))
            #expect(try await Self.lastMessage(api, elsewhere, as: cast.session(1)) == nil)
            let listed = try await api.get("/v3/announcements?status=canceled").rawJSON["announcements"] as? [[String: Any]]
            #expect(listed?.map { $0["unique_id"] as? String } == ["never-1"])
        }
    }

    /// Every channel of the sender, in batches (here of two), each sent once.
    @Test func allTheSendersChannelsInBatches() async throws {
        try await Self.withServer(batch: 2) { api in
            let cast = try await api.cast("aa", 3)
            var channels: [String] = []
            for index in 0..<5 { channels.append(try await api.createChannel(["user_ids": [cast[0], cast[1 + index % 2]]])) }
            let notTheSenders = try await api.createChannel(["user_ids": [cast[1], cast[2]]])
            let scheduled = try await api.post(
                "/v3/announcements",
                [
                    "message": ["type": "ADMM", "user_id": cast[0], "content": "Maintenance at noon"], "target_at": "sender_all_channels",
                    "target_channel_type": "all", "unique_id": "all-1", "enable_push": false
                ])
            #expect(scheduled.status == 200, "\(scheduled.text)")
            let done = try await Self.waitForStatus(api, "all-1", "completed")
            #expect(done["target_channel_count"] as? Int == 5)
            #expect(done["sent_channel_count"] as? Int == 5)
            #expect(done["sent_user_count"] as? Int == 5)
            for channel in channels {
                let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max / 2)&prev_limit=10")
                let texts = (history.rawJSON["messages"] as? [[String: Any]])?.compactMap { $0["message"] as? String }
                #expect(texts == ["Maintenance at noon"])
            }
            #expect(try await Self.lastMessage(api, notTheSenders, as: cast.session(1)) == nil)
        }
    }

    @Test func badRequestsChangeNothing() async throws {
        try await Self.withServer { api in
            let cast = try await api.cast("ab", 2)
            let valid: [String: Any] = [
                "message": ["type": "MESG", "user_id": cast[0], "content": "x"], "target_at": "target_users_only_existing_channels",
                "target_list": [cast[1]], "target_channel_type": "all", "unique_id": "dup"
            ]
            #expect(try await api.post("/v3/announcements", valid).status == 200)
            #expect(try await api.post("/v3/announcements", valid).status == 409)
            var missing = valid
            missing["message"] = ["type": "MESG", "content": "x"]
            missing["unique_id"] = "m1"
            let noSender = try await api.post("/v3/announcements", missing)
            #expect(noSender.status == 400)
            #expect(try noSender.code == 400105)
            var cases: [(String, Any)] = [
                ("target_at", "everyone"), ("target_channel_type", "some"), ("cease_at", "2500"), ("scheduled_at", "soon"),
                ("target_list", Array(repeating: "u", count: 1) + ["bad id!"])
            ]
            cases.append(("message", ["type": "FILE", "user_id": cast[0], "content": "x"]))
            for (index, (key, value)) in cases.enumerated() {
                var body = valid
                body[key] = value
                body["unique_id"] = "bad\(index)"
                let answer = try await api.post("/v3/announcements", body)
                #expect(answer.status == 400, "\(key): \(answer.text)")
            }
            var ghost = valid
            ghost["message"] = ["type": "MESG", "user_id": "nobody-here", "content": "x"]
            ghost["unique_id"] = "ghost"
            #expect(try await api.post("/v3/announcements", ghost).status == 400)
            #expect(try await api.post("/v3/announcements", valid, as: cast.session(0)).status == 403)
            #expect(try await api.get("/v3/announcements", as: cast.session(0)).status == 403)
            #expect(try await api.get("/v3/announcements/nope").status == 404)
            #expect(try await api.put("/v3/announcements/dup", ["action": "explode"]).status == 400)
            #expect(try await api.get("/v3/announcement_open_rate_by_group/none").status == 404)
            #expect(try await api.get("/v3/announcement_stats/daily?start_date=2026-13-01&end_date=2026-12-01").status == 400)
            #expect(try await api.get("/v3/announcement_stats/daily?start_date=2026-12-02&end_date=2026-12-01").status == 400)
            let listed = try await api.get("/v3/announcements").rawJSON["announcements"] as? [[String: Any]]
            #expect(listed?.compactMap { $0["unique_id"] as? String } == ["dup"])
        }
    }
}
