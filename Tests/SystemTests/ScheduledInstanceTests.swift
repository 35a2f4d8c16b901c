import Foundation
import ParleyContainer
import Postgres
import Testing

/// Scheduled messages with two instances on one database (API.md §13.3): each message is sent
/// exactly once, by whichever claims it; when the claimer dies, the other sends it once the
/// claim runs out; a claimer that died after its send committed leaves no second message.
@Suite struct ScheduledInstanceTests {
    static func twoInstances(_ body: @escaping @Sendable (API, API, String) async throws -> Void) async throws {
        try await OwnDatabase.with { database in
            let adjust: @Sendable (inout Config) -> Void = { config in
                ScheduledMessageTests.prompt(&config)
                config.databaseURL = database
            }
            try await TestServer.withAPI(adjust) { first in
                try await TestServer.withAPI(adjust) { second in try await body(first, second, database) }
            }
        }
    }

    @Test func twoInstancesSendEachMessageOnce() async throws {
        try await Self.twoInstances { first, second, database in
            let cast = try await first.cast("schi", 2)
            let channel = try await first.createChannel(["user_ids": [cast[0], cast[1]]])
            let time = ScheduledMessageTests.now + 3_600_000
            var ids: [Int] = []
            for index in 0..<20 {
                let api = index % 2 == 0 ? first : second
                ids.append(
                    try await ScheduledMessageTests.schedule(api, channel, "s\(index)", at: time + index * 20, as: cast.session(index % 2)))
            }
            try ScheduledMessageTests.makeDue(ids, in: database)
            for id in ids {
                #expect(try await ScheduledMessageTests.settled(first, channel, id)["status"] as? String == "sent")
            }
            let texts = try await ScheduledMessageTests.texts(second, channel)
            #expect(texts.sorted() == (0..<20).map { "s\($0)" }.sorted(), "\(texts)")
        }
    }

    @Test func aClaimWhoseInstanceDiedRunsOutAndTheOtherSends() async throws {
        try await Self.twoInstances { api, _, database in
            let cast = try await api.cast("schd", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let time = ScheduledMessageTests.now + 3_000
            let id = try await ScheduledMessageTests.schedule(api, channel, "orphan", at: time, as: cast.session(0))
            // An instance claimed it at its time and died: its lease (800 ms) holds the others off.
            let lease = 800
            let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
            _ = try connection.query(
                "UPDATE scheduled_messages SET claimed_until = $2, attempts = 1 WHERE scheduled_message_id = $1",
                [Int64(id), Int64(time + lease)])
            let sent = try await ScheduledMessageTests.settled(api, channel, id)
            #expect(sent["status"] as? String == "sent")
            let message = try await api.get("/v3/group_channels/\(channel)/messages/\(sent["message_id"] as? Int ?? 0)")
            let createdAt = message.rawJSON["created_at"] as? Int ?? 0
            #expect(createdAt >= time + lease, "sent at \(createdAt) before the claim ran out at \(time + lease)")
            // Within a second of the claimer's death (plus what a machine busy with the suite adds).
            #expect(createdAt <= time + 1_000 + 500, "sent \(createdAt - time) ms after its time")
        }
    }

    @Test func aSendThatCommittedBeforeItsInstanceDiedIsNotRepeated() async throws {
        try await Self.twoInstances { api, _, _ in
            let cast = try await api.cast("schr", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let id = try await ScheduledMessageTests.schedule(
                api, channel, "once", at: ScheduledMessageTests.now + 3_000, as: cast.session(0))
            // What the dead instance's send committed: the message, under the scheduled message's dedup id.
            let earlier = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message": "once", "dedup_id": "scheduled-\(id)"], as: cast.session(0))
            #expect(earlier.status == 201)
            let sent = try await ScheduledMessageTests.settled(api, channel, id)
            #expect(sent["status"] as? String == "sent")
            #expect(sent["message_id"] as? Int == earlier.rawJSON["message_id"] as? Int)
            #expect(try await ScheduledMessageTests.texts(api, channel) == ["once"])
        }
    }
}
