import Foundation
import ParleyContainer
import Postgres
import Testing

/// GDPR requests (API.md §14.1): a deletion leaves nothing the user wrote or uploaded anywhere,
/// conversations still read well, and the request says what it removed.
@Suite struct GDPRTests: WebhookFixtures, FileFixtures, GDPRFixtures {
    @Test func aDeletionLeavesNothingTheUserWroteOrUploaded() async throws {
        let marker = "zq" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(14)
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gdpr-\(UUID())").path
        try await Self.withWebhook(adjust: { config in
            Self.runJobs(&config, files: files)
            config.jobs.statisticsInterval = .milliseconds(50)
        }) { api, receiver, database in
            let cast = try await api.cast("gdpr", 3)
            let (erin, bob) = (cast[0], cast[1])
            #expect(
                try await api.put("/v3/users/\(erin)", ["nickname": "Erin \(marker)", "profile_url": "https://x.test/\(marker).png"]).status
                    == 200)
            #expect(try await api.post("/v3/users/\(erin)/metadata", ["metadata": ["motto": "motto \(marker)"]]).status == 201)
            let group = try await api.createChannel(["user_ids": cast.ids, "name": "Book club"])
            let direct = try await api.createChannel(["user_ids": [erin, bob], "is_distinct": true])
            let messages = "/v3/group_channels/\(group)/messages"
            // Bob's message, which mentions Erin: it is his, and stays.
            let bobs = try await api.post(
                messages, ["message": "hello Erin", "mention_type": "users", "mentioned_user_ids": [erin]], as: cast.session(1))
            let bobsID = try #require(bobs.rawJSON["message_id"] as? Int)
            let written = try await Self.writeEverywhere(api, cast, group: group, direct: direct, parentID: bobsID, marker: marker)
            #expect(try await eventually(within: .seconds(20)) { receiver.received.contains { $0.body.contains(marker) } })
            // Issue 50.7: what names her besides her words: a session of hers (its end is an event
            // for her alone), a channel she made and invited others to, the days she was active,
            // the flood window of her sends.
            let socket = try await api.events(cast.tokens[erin]!)
            socket.close()
            let hers = try await api.createChannel(["user_ids": [erin, bob], "name": "Erin's"], as: cast.session(0))
            #expect(try await api.post("/v3/group_channels/\(hers)/invite", ["user_ids": [cast[2]]], as: cast.session(0)).status == 200)
            #expect(
                try await eventually(within: .seconds(20)) {
                    !(try Self.rowsHolding(erin, in: database).filter { $0.hasPrefix("daily_active_users:") }.isEmpty)
                })

            let registered = try await api.post(
                "/v3/privacy/gdpr", ["action": "delete", "user_ids": [erin], "channel_delete_option": "1_on_1"])
            #expect(registered.status == 200, "\(registered.text)")
            let requestID = try #require(registered.rawJSON["request_id"] as? String)
            #expect(registered.rawJSON["status"] as? String == "scheduled")
            let done = try await Self.finished(api, requestID)
            #expect(done["status"] as? String == "done", "\(done)")
            let removed = done["removed"] as? [String: Int] ?? [:]
            #expect(removed["messages"] == written.messages, "\(removed)")
            #expect(removed["channels"] == 1 && removed["users"] == 1 && removed["files"] == 1, "\(removed)")
            #expect(removed["reactions"] == 1 && removed["scheduled_messages"] == 1, "\(removed)")

            // The account, the 1-to-1 channel and the file are gone; the group reads well.
            #expect(try await api.get("/v3/users/\(erin)").status == 404)
            #expect(try await api.get("/v3/group_channels/\(direct)").status == 404)
            #expect(try await api.download(written.fileURL, as: .admin).status == 404)
            #expect(Self.files(in: files).filter { $0.contains(written.fileID) }.isEmpty)
            let history = try await api.get("\(messages)?message_ts=0&prev_limit=0&next_limit=50", as: cast.session(1))
            let left = (history.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message_id"] as? Int }
            #expect(left == [bobsID], "\(history.text)")
            let parent = try await api.get("\(messages)/\(bobsID)?with_sorted_meta_array=true", as: cast.session(1))
            #expect((parent.rawJSON["thread_info"] as? [String: Any])?["reply_count"] as? Int ?? 0 == 0, "\(parent.text)")
            #expect((try await api.get("/v3/search/messages?query=\(marker)").rawJSON["results"] as? [Any] ?? [1]).isEmpty)
            // Reports stay for the moderators, without her words.
            let reports = try await api.get("/v3/report?limit=100")
            #expect((reports.rawJSON["report_logs"] as? [Any] ?? []).count == 2, "\(reports.text)")
            // Bob's mention of her names her pseudonym now.
            let mentioning = try PostgresConnection(conninfo: database, logger: TestServer.logger).query(
                "SELECT mentioned_user_ids::text AS ids FROM messages WHERE message_id = $1", [Int64(bobsID)])
            let mentioned = try mentioning.first?.decode("ids", as: String.self) ?? ""
            #expect(!mentioned.contains(erin) && mentioned.contains("erased_"), "\(mentioned)")
            // Nothing anywhere in the database holds what she wrote, her name or her picture.
            let holding = try Self.rowsHolding(marker, in: database)
            #expect(holding.isEmpty, "\(holding.joined(separator: "\n"))")
            // Nor her id: nothing but the pseudonym is left of her (issue 50.7).
            let naming = try Self.rowsHolding(erin, in: database)
            #expect(naming.isEmpty, "\(naming.joined(separator: "\n"))")
        }
    }
}
