import Foundation
import Postgres
import Testing

/// The push queue (API.md §12.6): a new group-channel message that may push is queued by its own
/// send, as one row whatever the channel's size; silent messages, `send_push: false` and open
/// channels queue nothing.
@Suite struct PushQueueTests {
    /// The message ids of `ids` that have a queued push.
    static func queued(_ ids: [Int]) async throws -> Set<Int> {
        let pool = ConnectionPool(configuration: .init(conninfo: try TestServer.databaseURL, size: 1), logger: TestServer.logger)
        do {
            let rows = try await pool.withConnection { connection in
                try connection.query("SELECT message_id FROM push_queue WHERE message_id = ANY($1::bigint[])", [ids.map(Int64.init)])
                    .map { Int(try $0.decode("message_id") as Int64) }
            }
            await pool.close()
            return Set(rows)
        } catch {
            await pool.close()
            throw error
        }
    }

    @Test func aMessageIsQueuedOnceUnlessItMayNotPush() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushq", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let base = "/v3/group_channels/\(channel)/messages"
            func send(_ body: [String: Any]) async throws -> Int {
                let answer = try await api.post(base, body.merging(["message": "hi"]) { a, _ in a }, as: cast.session(0))
                #expect(answer.status == 201, "\(answer.text)")
                return try #require(answer.rawJSON["message_id"] as? Int)
            }
            let plain = try await send([:])
            let silent = try await send(["is_silent": true])
            let quiet = try await send(["send_push": false])
            let pushed = try await send(["send_push": true])
            let admin = try #require(
                try await api.post(base, ["message_type": "ADMM", "message": "notice"]).rawJSON["message_id"] as? Int)
            #expect(try await Self.queued([plain, silent, quiet, pushed, admin]) == [plain, pushed, admin])
            #expect(try await api.post(base, ["message": "x", "send_push": "no"], as: cast.session(0)).status == 400)
        }
    }

    /// A push not sent within ten minutes of its message is dropped (API.md §12.6), by the
    /// database's clock: messages are sent here with a server clock set back.
    @Test func aPushOlderThanTheDeliveryLimitIsDropped() async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let time = ManualClock(now - 660_000)
        try await TestServer.withAPI({ $0.push.sweepInterval = .milliseconds(50) }, clock: time.clock) { api in
            let cast = try await api.cast("pushqexp", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/messages"
            // A channel's messages are stamped in order, so the older one goes first.
            let stale = try #require(try await api.post(base, ["message": "11 min ago"], as: cast.session(0)).rawJSON["message_id"] as? Int)
            // Five minutes inside the limit: the test may run slowly on a busy machine (once, 108 s).
            time.advance(by: 360_000)
            let recent = try #require(try await api.post(base, ["message": "5 min ago"], as: cast.session(0)).rawJSON["message_id"] as? Int)
            #expect(try await eventually { try await Self.queued([stale]).isEmpty })
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.queued([recent]) == [recent], "still within the limit after several sweeps")
        }
    }

    @Test func openChannelMessagesQueueNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushqopen", 1)
            let url = try await Self.openChannel(api)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(0)).status == 200)
            let sent = try await api.post("/v3/open_channels/\(url)/messages", ["message": "hi"], as: cast.session(0))
            let id = try #require(sent.rawJSON["message_id"] as? Int, "\(sent.text)")
            #expect(try await Self.queued([id]).isEmpty)
        }
    }
}

extension PushQueueTests: ParticipantFixtures {}
