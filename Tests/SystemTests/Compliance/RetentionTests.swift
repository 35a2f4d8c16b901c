import Foundation
import ParleyContainer
import Postgres
import Testing

/// Message retention (API.md §14.3): messages past it go, in batches, without an event each;
/// unread counts, pins, threads and files follow.
@Suite struct RetentionTests: GDPRFixtures, FileFixtures {
    @Test func messagesPastRetentionGoInBatchesAndTheCountsStayExact() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-retention-\(UUID())").path
        let time = ManualClock(1_800_000_000_000)
        try await OwnDatabase.with { database in
            try await TestServer.withAPI(
                { config in
                    config.databaseURL = database
                    Self.runJobs(&config, files: files)
                    config.jobs.messageRetention = .seconds(86_400)
                    config.jobs.retentionInterval = .seconds(60)
                    config.jobs.batchSize = 3
                }, clock: time.clock
            ) { api in
                let cast = try await api.cast("retention", 2)
                let channel = try await api.createChannel(["user_ids": cast.ids])
                let messages = "/v3/group_channels/\(channel)/messages"
                var ids: [Int] = []
                for index in 0..<5 {
                    let sent = try await api.post(messages, ["message": "old \(index)"], as: cast.session(0))
                    ids.append(sent.rawJSON["message_id"] as? Int ?? 0)
                    // The second member replies to the first (and has read it, by sending).
                    if index == 0 {
                        #expect(
                            try await api.post(messages, ["message": "old reply", "parent_message_id": ids[0]], as: cast.session(1)).status
                                == 201)
                    }
                }
                let upload = try await api.upload(channel, file: FormFile(bytes: Media.random(5_000)), as: cast.session(0))
                #expect(upload.status == 201)
                #expect(try await api.post("/v3/group_channels/\(channel)/messages/\(ids[1])/pin", as: cast.session(0)).status == 200)
                #expect(!Self.files(in: files).isEmpty)
                let unread = "/v3/users/\(cast[1])/unread_message_count"
                #expect(try await api.get(unread).rawJSON["unread_count"] as? Int == 5)

                // Two days on: a new message, and the old ones past the day of retention go.
                time.advance(by: 2 * 86_400_000)
                #expect(try await api.post(messages, ["message": "new"], as: cast.session(0)).status == 201)
                #expect(
                    try await eventually(within: .seconds(30)) {
                        let history = try await api.get("\(messages)?message_ts=0&prev_limit=0&next_limit=20")
                        return (history.rawJSON["messages"] as? [[String: Any]])?.compactMap { $0["message"] as? String } == ["new"]
                    })
                #expect(try await api.get(unread).rawJSON["unread_count"] as? Int == 1)
                #expect(
                    (try await api.get("/v3/group_channels/\(channel)/pinned_messages").rawJSON["pinned_messages"] as? [Any])?.isEmpty
                        == true)
                #expect(try await eventually { Self.files(in: files).isEmpty })
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                // Summed over the runs: the slot's run that started before the clock moved may
                // finish after it (removing none), beside the next slot's (on a busy machine). A
                // run is marked done in a transaction after its last batch's, so the count is
                // waited for: it must reach seven, and no more.
                var removed = -1
                let reachedSeven = try await eventually(within: .seconds(30)) {
                    removed = try connection.query(
                        "SELECT COALESCE(sum((result ->> 'removed')::int), 0) AS n FROM jobs WHERE kind = 'retention' AND status = 'done'"
                    )[0].decode("n", as: Int.self)
                    return removed >= 7
                }
                #expect(reachedSeven && removed == 7, "seven removed in batches of three, not \(removed)")
                let deletions = try connection.query("SELECT count(*) AS n FROM events WHERE type = 'message_deleted'")[0].decode(
                    "n", as: Int.self)
                #expect(deletions == 0, "no event for each purged message")
            }
        }
    }
}
