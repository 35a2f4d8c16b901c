import Foundation
import ParleyContainer
import Postgres
import Testing

/// A group channel's own retention and disappearing messages (API.md §14.3): `message_retention_hours`
/// removes its messages past that age; `message_survival_seconds` removes each message that long
/// after every joined member has read it, with `message_deleted`.
@Suite struct ChannelRetentionTests {
    static func history(_ api: API, _ channel: String, kind: String = "group_channels") async throws -> [String] {
        let history = try await api.get("/v3/\(kind)/\(channel)/messages?message_ts=0&prev_limit=0&next_limit=20")
        return (history.rawJSON["messages"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
    }

    static func withServer(_ time: ManualClock, _ body: @escaping @Sendable (API, String) async throws -> Void) async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI(
                { config in
                    config.databaseURL = database
                    config.jobs.enabled = true
                    config.jobs.pollInterval = .milliseconds(50)
                    config.jobs.channelRetentionInterval = .seconds(1)
                }, clock: time.clock
            ) { api in try await body(api, database) }
        }
    }

    @Test func aChannelsOwnRetentionRemovesItsOldMessagesOnly() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServer(time) { api, _ in
            let cast = try await api.cast("cr", 2)
            let kept = try await api.createChannel(["user_ids": cast.ids])
            let created = try await api.post("/v3/group_channels", ["user_ids": cast.ids, "message_retention_hours": 1])
            #expect(created.status == 201, "\(created.text)")
            #expect(created.rawJSON["message_retention_hours"] as? Int == 1)
            let short = try #require(created.rawJSON["channel_url"] as? String)
            for channel in [kept, short] {
                #expect(try await api.post("/v3/group_channels/\(channel)/messages", ["message": "old"], as: cast.session(0)).status == 201)
            }
            // An open channel keeps its own retention too.
            let open = try await api.post("/v3/open_channels", ["name": "Lobby", "message_retention_hours": 1])
            #expect(open.rawJSON["message_retention_hours"] as? Int == 1, "\(open.text)")
            let lobby = try #require(open.rawJSON["channel_url"] as? String)
            let admin = ["message_type": "ADMM", "message": "old"]
            #expect(try await api.post("/v3/open_channels/\(lobby)/messages", admin).status == 201)
            time.advance(by: 2 * 3_600_000)
            #expect(try await api.post("/v3/group_channels/\(short)/messages", ["message": "new"], as: cast.session(0)).status == 201)
            time.advance(by: 1_000)
            #expect(try await eventually(within: .seconds(20)) { try await Self.history(api, short) == ["new"] })
            #expect(try await Self.history(api, kept) == ["old"])
            #expect(try await eventually { try await Self.history(api, lobby, kind: "open_channels").isEmpty })
        }
    }

    @Test func disappearingMessagesGoOnceEveryMemberReadThem() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServer(time) { api, database in
            let cast = try await api.cast("cs", 2)
            let created = try await api.post("/v3/group_channels", ["user_ids": cast.ids, "message_survival_seconds": 30])
            #expect(created.status == 201, "\(created.text)")
            #expect((created.rawJSON["disappearing_message"] as? [String: Any])?["message_survival_seconds"] as? Int == 30)
            let channel = try #require(created.rawJSON["channel_url"] as? String)
            #expect(try await api.post("/v3/group_channels/\(channel)/messages", ["message": "secret"], as: cast.session(0)).status == 201)
            // Unread by the second member: it stays however long.
            for _ in 0..<3 {
                time.advance(by: 60_000)
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(try await Self.history(api, channel) == ["secret"])
            // Read by both, then 30 s on, it goes.
            #expect(try await api.put("/v3/group_channels/\(channel)/messages/mark_as_read", [:], as: cast.session(1)).status == 200)
            time.advance(by: 2_000)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await Self.history(api, channel) == ["secret"], "not before its 30 seconds")
            time.advance(by: 31_000)
            #expect(try await eventually(within: .seconds(20)) { try await Self.history(api, channel).isEmpty })
            let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
            let deleted = try connection.query("SELECT count(*) AS n FROM events WHERE type = 'message_deleted'")[0].decode(
                "n", as: Int.self)
            #expect(deleted == 1, "its members were told")
            // Off again.
            let off = try await api.put("/v3/group_channels/\(channel)", ["message_survival_seconds": -1])
            #expect((off.rawJSON["disappearing_message"] as? [String: Any])?["message_survival_seconds"] as? Int == -1)
        }
    }

    @Test func badValuesAreRefused() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("cb", 2)
            for body: [String: Any] in [
                ["message_retention_hours": -1], ["message_retention_hours": 100_000], ["message_survival_seconds": -2],
                ["message_survival_seconds": 3_000_000], ["message_survival_seconds": "soon"]
            ] {
                var create = body
                create["user_ids"] = cast.ids
                #expect(try await api.post("/v3/group_channels", create).status == 400, "\(body)")
            }
        }
    }
}
