import Foundation
import Testing

/// Reports and the review queue (API.md §7.4) through HTTP.
@Suite struct ReportTests {
    private func ids(_ response: APIResponse) -> [Int] {
        (response.rawJSON["report_logs"] as? [[String: Any]] ?? []).compactMap { $0["report_id"] as? Int }
    }

    @Test func aMessageReportKeepsTheMessageAsReportedAndFoldsRepeats() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let cast = try await api.cast("report", 3)
            let (sender, reporter, outsider) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [sender, reporter]])
            let sent = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "message": "buy my pills"], as: cast.session(0))
            let messageID = try #require(sent.rawJSON["message_id"] as? Int)
            let path = "/v3/report/group_channels/\(channel)/messages/\(messageID)"

            let filed = try await api.post(
                path, ["report_category": "spam", "offending_user_id": sender, "report_description": "ads"], as: cast.session(1))
            #expect(filed.status == 201, "\(filed.text)")
            let report = filed.rawJSON
            let reportID = try #require(report["report_id"] as? Int)
            #expect(report["report_type"] as? String == "message")
            #expect(report["report_category"] as? String == "spam")
            #expect((report["reporting_user"] as? [String: Any])?["user_id"] as? String == reporter)
            #expect((report["offending_user"] as? [String: Any])?["user_id"] as? String == sender)
            #expect((report["channel"] as? [String: Any])?["channel_url"] as? String == channel)
            #expect(report["status"] as? String == "open")

            // The snapshot stays as reported after an edit and a deletion.
            let edit = try await api.put(
                "/v3/group_channels/\(channel)/messages/\(messageID)", ["message_type": "MESG", "message": "nothing to see"],
                as: cast.session(0))
            #expect(edit.status == 200, "\(edit.text)")
            #expect(try await api.delete("/v3/group_channels/\(channel)/messages/\(messageID)", as: cast.session(0)).status == 200)
            let listed = try await api.get(path)
            let entry = (listed.rawJSON["report_logs"] as? [[String: Any]])?.first
            #expect((entry?["reported_message"] as? [String: Any])?["message"] as? String == "buy my pills", "\(listed.text)")

            // The same reporter and target within 24 h: the first report back.
            let again = try await api.post(path, ["report_category": "harassing"], as: cast.session(1))
            #expect(again.status == 200, "\(again.text)")
            #expect(again.rawJSON["report_id"] as? Int == reportID)
            time.advance(by: 24 * 3600 * 1000 + 1)
            // Gone by now for the reporter too: a deleted message cannot be reported anew.
            #expect(try await api.post(path, ["report_category": "spam"], as: cast.session(1)).status == 404)

            // Only what the reporter can see, and only its real sender as the offender.
            let other = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "message": "hi"], as: cast.session(0))
            let otherPath = "/v3/report/group_channels/\(channel)/messages/\(try #require(other.rawJSON["message_id"] as? Int))"
            #expect(try await api.post(otherPath, ["report_category": "spam"], as: cast.session(2)).status == 404)
            let wrongOffender = try await api.post(
                otherPath, ["report_category": "spam", "offending_user_id": outsider], as: cast.session(1))
            #expect(wrongOffender.status == 400)
            #expect(try await api.post(otherPath, ["report_category": "rude"], as: cast.session(1)).status == 400)
            #expect(try await api.post(otherPath, [:], as: cast.session(1)).status == 400)
            #expect(try await api.post(otherPath, ["report_category": "spam"], as: .none).status == 401)
            // Acting for someone else: the admin names the reporter; a user may not.
            #expect(try await api.post(otherPath, ["report_category": "spam"]).status == 400)
            #expect(try await api.post(otherPath, ["report_category": "spam", "reporting_user_id": reporter]).status == 201)
            let forOther = try await api.post(
                otherPath, ["report_category": "spam", "reporting_user_id": sender], as: cast.session(1))
            #expect(forOther.status == 403)
            #expect(try await api.get(otherPath, as: cast.session(1)).status == 403, "the queue is the admin's")
            #expect(ids(try await api.get(otherPath)).count == 1)
        }
    }

    @Test func usersAndChannelsAreReportedByThoseWhoCanSeeThem() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("reportu", 3)
            let (offender, reporter, outsider) = (cast[0], cast[1], cast[2])
            let secret = try await api.createChannel(["user_ids": [offender, reporter]])
            let open = try await api.createChannel(["user_ids": [offender], "is_public": true, "name": "Lobby"])

            let user = try await api.post(
                "/v3/report/users/\(offender)", ["report_category": "harassing", "channel_type": "group_channels", "channel_url": secret],
                as: cast.session(1))
            #expect(user.status == 201, "\(user.text)")
            #expect(user.rawJSON["report_type"] as? String == "user")
            #expect((user.rawJSON["channel"] as? [String: Any])?["channel_url"] as? String == secret)
            let hidden = try await api.post(
                "/v3/report/users/\(offender)", ["report_category": "harassing", "channel_type": "group", "channel_url": secret],
                as: cast.session(2))
            #expect(hidden.status == 404, "a channel the reporter cannot see: \(hidden.text)")
            #expect(try await api.post("/v3/report/users/\(outsider)", ["report_category": "spam"], as: cast.session(2)).status == 400)
            #expect(try await api.post("/v3/report/users/nobody-\(UUID())", ["report_category": "spam"], as: cast.session(2)).status == 404)
            let badType = try await api.post(
                "/v3/report/users/\(offender)", ["report_category": "spam", "channel_type": "x", "channel_url": secret], as: cast.session(1)
            )
            #expect(badType.status == 400)
            #expect(
                try await api.post("/v3/report/users/\(offender)", ["report_category": "spam", "channel_url": secret], as: cast.session(1))
                    .status == 400)

            let channel = try await api.post("/v3/report/group_channels/\(open)", ["report_category": "inappropriate"], as: cast.session(2))
            #expect(channel.status == 201, "a public channel is visible to all: \(channel.text)")
            #expect((channel.rawJSON["channel"] as? [String: Any])?["name"] as? String == "Lobby")
            #expect(channel.rawJSON["offending_user"] is NSNull)
            #expect(
                try await api.post("/v3/report/group_channels/\(secret)", ["report_category": "spam"], as: cast.session(2)).status == 404)

            let byUser = try await api.get("/v3/report/users/\(offender)")
            #expect(ids(byUser) == [try #require(user.rawJSON["report_id"] as? Int)], "\(byUser.text)")
            let byChannel = try await api.get("/v3/report/group_channels/\(open)")
            #expect(ids(byChannel) == [try #require(channel.rawJSON["report_id"] as? Int)])
        }
    }

    @Test func reportersAreRateLimitedAndFoldedRepeatsDoNotCount() async throws {
        // A time of its own, to list only this test's reports from the shared database.
        let time = ManualClock(1_610_000_000_000)
        try await TestServer.withAPI({ $0.limits.reportsPerHour = 3 }, clock: time.clock) { api in
            let cast = try await api.cast("reportr", 5)
            for index in 1...3 {
                let filed = try await api.post("/v3/report/users/\(cast[index])", ["report_category": "spam"], as: cast.session(0))
                #expect(filed.status == 201)
                time.advance(by: 1000)
            }
            let over = try await api.post("/v3/report/users/\(cast[4])", ["report_category": "spam"], as: cast.session(0))
            #expect(over.status == 429, "\(over.text)")
            #expect(try over.code == 500910)
            #expect(over.headers[.retryAfter] == "3597", "the first report leaves the window 3,597 s from now")
            #expect(try await api.post("/v3/report/users/\(cast[1])", ["report_category": "spam"], as: cast.session(0)).status == 200)
            #expect(try await api.post("/v3/report/users/\(cast[0])", ["report_category": "spam"], as: cast.session(1)).status == 201)
            time.advance(by: 3_597_000)
            #expect(try await api.post("/v3/report/users/\(cast[4])", ["report_category": "spam"], as: cast.session(0)).status == 201)
            #expect(ids(try await api.get("/v3/report?start_ts=1610000000000&end_ts=1620000000000")).count == 5)
        }
    }

    @Test func theReviewQueue() async throws {
        // A time of its own, to list only this test's reports from the shared database.
        let time = ManualClock(1_600_000_000_000)
        let window = "start_ts=1600000000000&end_ts=1610000000000"
        try await TestServer.withAPI(clock: time.clock) { api in
            let cast = try await api.cast("reportq", 4)
            var reports: [Int] = []
            for index in 1...3 {
                let filed = try await api.post("/v3/report/users/\(cast[0])", ["report_category": "spam"], as: cast.session(index))
                reports.append(try #require(filed.rawJSON["report_id"] as? Int))
            }
            let resolved = try await api.put("/v3/report/\(reports[0])", ["status": "resolved", "resolution": "user warned"])
            #expect(resolved.status == 200, "\(resolved.text)")
            #expect(resolved.rawJSON["status"] as? String == "resolved")
            #expect(resolved.rawJSON["resolution"] as? String == "user warned")
            #expect(resolved.rawJSON["resolved_by"] as? String == "admin")
            #expect(try await api.put("/v3/report/\(reports[1])", ["status": "dismissed"]).status == 200)

            #expect(ids(try await api.get("/v3/report?status=open&\(window)")) == [reports[2]])
            #expect(ids(try await api.get("/v3/report?status=resolved&\(window)")) == [reports[0]])
            #expect(ids(try await api.get("/v3/report?report_type=user&\(window)")) == reports.reversed())
            #expect(ids(try await api.get("/v3/report?report_type=channel&\(window)")).isEmpty)
            let first = try await api.get("/v3/report?limit=2&\(window)")
            let next = try #require(first.rawJSON["next"] as? String)
            #expect(ids(first) + ids(try await api.get("/v3/report?limit=2&\(window)&token=\(next)")) == reports.reversed())

            let audit = try await api.get("/v3/audit_logs?action=report_resolved&target_user_id=\(cast[0])")
            let entries = audit.rawJSON["audit_logs"] as? [[String: Any]] ?? []
            #expect(entries.count == 2, "\(audit.text)")
            #expect(Set(entries.compactMap { ($0["details"] as? [String: Any])?["status"] as? String }) == ["resolved", "dismissed"])

            // Refusals change nothing.
            #expect(try await api.put("/v3/report/\(reports[2])", ["status": "closed"]).status == 400)
            #expect(try await api.put("/v3/report/\(reports[2])", [:]).status == 400)
            #expect(try await api.put("/v3/report/999999999", ["status": "resolved"]).status == 404)
            #expect(try await api.put("/v3/report/abc", ["status": "resolved"]).status == 400)
            #expect(try await api.put("/v3/report/\(reports[2])", ["status": "resolved"], as: cast.session(1)).status == 403)
            #expect(try await api.get("/v3/report", as: cast.session(1)).status == 403)
            #expect(try await api.get("/v3/report", as: .none).status == 401)
            #expect(try await api.get("/v3/report?status=closed").status == 400)
            #expect(ids(try await api.get("/v3/report?status=open&\(window)")) == [reports[2]])
        }
    }
}
