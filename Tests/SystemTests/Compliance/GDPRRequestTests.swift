import Foundation
import ParleyContainer
import Postgres
import Testing

/// Registering, listing and cancelling GDPR requests (API.md §14.1), and a request that outlives
/// the instance running it.
@Suite struct GDPRRequestTests: GDPRFixtures {
    @Test func badRequestsAreRefusedAndChangeNothing() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let cast = try await api.cast("gdprbad", 1)
                let path = "/v3/privacy/gdpr"
                #expect(try await api.post(path, ["action": "forget", "user_ids": [cast[0]]]).code == 400111)
                #expect(try await api.post(path, ["action": "delete"]).code == 400105)
                #expect(try await api.post(path, ["action": "delete", "user_ids": "x"]).code == 400102)
                #expect(try await api.post(path, ["action": "delete", "user_ids": (0...100).map { "u\($0)" }]).code == 400111)
                #expect(try await api.post(path, ["action": "delete", "user_ids": ["a b"]]).code == 400111)
                #expect(try await api.post(path, ["user_ids": [cast[0]], "channel_delete_option": "some"]).code == 400111)
                #expect(try await api.post(path, ["action": "access", "user_id": cast[0], "channel_delete_option": "all"]).code == 400111)
                #expect(try await api.post(path, ["action": "delete", "user_ids": [cast[0]]], as: cast.session(0)).status == 403)
                #expect(try await api.get(path, as: cast.session(0)).status == 403)
                #expect(try await api.get("\(path)/nothing-here").status == 404)
                #expect((try await api.get(path).rawJSON["requests"] as? [Any] ?? [1]).isEmpty)
                #expect(try await api.get("/v3/users/\(cast[0])").status == 200)
            }
        }
    }

    @Test func requestsAreListedNewestFirstAndCancelledBeforeTheyStart() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let cast = try await api.cast("gdprlist", 3)
                var ids: [String] = []
                for user in cast.ids {
                    let made = try await api.post("/v3/privacy/gdpr", ["user_ids": [user]])
                    #expect(
                        made.rawJSON["action"] as? String == "delete" && made.rawJSON["channel_delete_option"] as? String == "do_not_delete"
                    )
                    ids.append(made.rawJSON["request_id"] as? String ?? "")
                }
                let first = try await api.get("/v3/privacy/gdpr?limit=2")
                let next = try #require(first.rawJSON["next"] as? String)
                let second = try await api.get("/v3/privacy/gdpr?limit=2&token=\(next)")
                let listed = [first, second].flatMap {
                    ($0.rawJSON["requests"] as? [[String: Any]] ?? []).compactMap { $0["request_id"] as? String }
                }
                #expect(listed == ids.reversed())
                #expect(try await api.delete("/v3/privacy/gdpr/\(ids[0])").status == 200)
                #expect(try await api.get("/v3/privacy/gdpr/\(ids[0])").rawJSON["status"] as? String == "canceled")
                #expect(try await api.delete("/v3/privacy/gdpr/\(ids[0])").code == 400111)
                // Nobody runs jobs here: the others wait, the users are still there.
                #expect(try await api.get("/v3/privacy/gdpr/\(ids[1])").rawJSON["status"] as? String == "scheduled")
                #expect(try await api.get("/v3/users/\(cast[0])").status == 200)
            }
        }
    }

    /// An instance killed while it erases: another takes the job over once the lease ran out and
    /// goes on from the last saved batch; every message is erased once, none is missed.
    @Test func anErasureGoesOnWhenItsInstanceDies() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gdpr-\(UUID())").path
        try await OwnDatabase.with { database in
            let (requestID, erin, channel) = try await Self.manyMessages(database, count: 600)
            let process = try await ServerProcess(environment: [
                "DATABASE_URL": database, "PARLEY_JOBS": "true", "PARLEY_JOB_POLL_MS": "20", "PARLEY_JOB_LEASE_MS": "2000",
                "PARLEY_JOB_BATCH": "20", "PARLEY_FILE_DIR": files
            ])
            defer { process.stop() }
            let watcher = try PostgresConnection(conninfo: database, logger: TestServer.logger)
            let midway = try await eventually(within: .seconds(60), every: .milliseconds(10)) {
                let row = try watcher.query(
                    "SELECT progress ->> 'phase' AS phase, progress ->> 'cursor' AS cursor FROM jobs WHERE kind = 'gdpr'"
                ).first
                return try row?.decodeIfPresent("phase", as: String.self) == "messages"
                    && row?.decodeIfPresent("cursor", as: String.self) != "0"
            }
            process.kill()
            #expect(midway)
            let left = try watcher.query("SELECT count(*) AS n FROM messages WHERE sender_id = $1", [erin])[0].decode("n", as: Int.self)
            #expect(left > 0 && left < 600, "killed midway: \(left) of 600 left")
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                Self.runJobs(&config, files: files)
                config.jobs.batchSize = 20
            }) { api in
                let done = try await Self.finished(api, requestID)
                #expect(done["status"] as? String == "done", "\(done)")
                #expect((done["removed"] as? [String: Int])?["messages"] == 600, "\(done)")
                let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=0&prev_limit=0&next_limit=10")
                #expect((history.rawJSON["messages"] as? [Any] ?? [1]).isEmpty, "\(history.text)")
            }
            #expect(try watcher.query("SELECT count(*) AS n FROM messages WHERE sender_id = $1", [erin])[0].decode("n", as: Int.self) == 0)
            #expect(try watcher.query("SELECT attempts FROM jobs WHERE kind = 'gdpr'")[0].decode("attempts", as: Int.self) == 2)
        }
    }

    /// A user with `count` messages in a channel, and a GDPR deletion of them registered.
    static func manyMessages(_ database: String, count: Int) async throws -> (requestID: String, userID: String, channel: String) {
        let made = Captured(("", "", ""))
        try await TestServer.withAPI({ $0.databaseURL = database }) { api in
            let cast = try await api.cast("gdprmany", 2)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in stride(from: worker, to: count, by: 8) {
                            let sent = try await api.post(
                                "/v3/group_channels/\(channel)/messages", ["message": "m\(index)"], as: cast.session(0))
                            guard sent.status == 201 else { throw TestFailure("send answered \(sent.status): \(sent.text)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let request = try await api.post("/v3/privacy/gdpr", ["user_ids": [cast[0]]])
            made.value = (request.rawJSON["request_id"] as? String ?? "", cast[0], channel)
        }
        return made.value
    }
}
