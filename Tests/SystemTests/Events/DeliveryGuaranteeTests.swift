import Foundation
import Logging
import ParleyCore
import Postgres
import Testing

/// API.md §6.1 and §6.3: nothing skipped when transactions commit out of id order, a slow
/// reader cut off (and resuming) instead of holding memory, the per-user socket cap.
@Suite struct DeliveryGuaranteeTests {
    /// A transaction takes an event id and stays open while a later one commits: the reader holds
    /// the later event back until the first commits, then delivers both, in id order.
    /// Its own database: the open gap holds back every reader of the database it is in, and the
    /// other suites' servers on the common one would wait for it (seen in CI: 17 s under load).
    @Test func anEventThatCommitsLateIsNeverSkipped() async throws {
        try await OwnDatabase.with { database in try await Self.commitLateAndWatch(database) }
    }

    private static func commitLateAndWatch(_ database: String) async throws {
        try await TestServer.withAPI({ $0.databaseURL = database }) { api in
            let cast = try await api.cast("late", 2)
            let early = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let later = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let socket = try await api.events(cast.tokens[cast[1]]!)
            // What EventRepository.flush does, by hand, so that the commit can wait: the shared
            // producer lock, the channel's lock, an id.
            let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
            _ = try connection.execute("BEGIN")
            let lockSpace = 0x5052_4C59
            _ = try connection.query("SELECT pg_advisory_xact_lock_shared(\(lockSpace), 0)")
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockSpace), hashtext($1))", [early])
            let payload = String(decoding: try JSONEncoder().encode(EventPayload.nothing), as: UTF8.self)
            let lateID: Int64 = try connection.query(
                """
                INSERT INTO events (event_id, created_at, type, channel_url, audience, data)
                VALUES (nextval('event_ids'), (extract(epoch FROM clock_timestamp()) * 1000)::bigint, 'channel_frozen', $1, 0, $2)
                RETURNING event_id
                """, [early, payload]
            )[0].decode("event_id")
            // A later id commits first.
            let sent = try await api.post(
                "/v3/group_channels/\(later)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "later"])
            #expect(sent.status == 201)
            try await Task.sleep(for: .milliseconds(600))
            // The channels' creation may still be on its way to the socket opened right after it
            // (its events come after the hello's position): only what follows the gap counts.
            func fromTheGap() -> [[String: Any]] { socket.events.filter { ($0["event_id"] as? Int ?? 0) >= Int(lateID) } }
            #expect(fromTheGap().isEmpty, "delivered past an open gap: \(socket.events)")
            _ = try connection.execute("COMMIT")
            _ = try connection.query("SELECT pg_notify('parley_events', '')")
            _ = try await socket.waitForEvent("message_received")
            let events = fromTheGap()
            #expect(events.map { $0["type"] as? String } == ["channel_frozen", "message_received"])
            #expect(events.first?["event_id"] as? Int == Int(lateID))
            #expect((events.last?["event_id"] as? Int ?? 0) > Int(lateID))
            socket.close()
        }
    }

    /// `pg_locks` shows the whole cluster: a transaction writing events in another database
    /// sharing it holds no gap of this one's, however long it stays open.
    @Test func aProducerInAnotherDatabaseHoldsNothingBack() async throws {
        try await OwnDatabase.with { other in
            let holder = try PostgresConnection(conninfo: other, logger: TestServer.logger)
            _ = try holder.execute("BEGIN")
            _ = try holder.query("SELECT pg_advisory_xact_lock_shared(\(0x5052_4C59), 0)")
            defer { _ = try? holder.execute("ROLLBACK") }
            try await TestServer.withAPI { api in
                let cast = try await api.cast("otherdb", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let socket = try await api.events(cast.tokens[cast[1]]!)
                // A gap of this database's that nothing will fill: an id taken and never used.
                let taker = try PostgresConnection(conninfo: try TestServer.databaseURL, logger: TestServer.logger)
                _ = try taker.query("SELECT nextval('event_ids')")
                let sent = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "past the gap"])
                #expect(sent.status == 201)
                // Before the fix this waited as long as the other database's transaction.
                _ = try await socket.waitForEvent("message_received", within: .seconds(20))
                socket.close()
            }
        }
    }

    /// A client that stops reading is closed once it is `socketQueueLimit` deliveries behind;
    /// the others are not slowed, and it resumes with `after`.
    @Test func aClientThatStopsReadingIsCutOffAndResumes() async throws {
        // Enough bytes to fill the kernel's socket buffers on both ends (some MiB on loopback),
        // after which the server's writes wait and the queue fills.
        let count = 40
        try await TestServer.withAPI({
            $0.events.socketQueueLimit = 8
            $0.limits.messageLength = 300_000
        }) { api in
            let cast = try await api.cast("slow", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let reader = try await api.events(cast.tokens[cast[1]]!)
            // The slow client: a bare socket that reads the hello and then nothing.
            let slow = try api.rawEventStream(cast.tokens[cast[2]]!)
            let hello = await slow.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }.text
            let after = try #require(Self.number(after: "\"last_event_id\":", in: hello))
            let big = String(repeating: "x", count: 250_000)
            for index in 0..<count {
                let sent = try await api.post(
                    "/v3/group_channels/\(channel)/messages",
                    ["message_type": "MESG", "user_id": cast[0], "message": "\(index) \(big)"])
                #expect(sent.status == 201)
            }
            // The reader got everything; the slow one was let go.
            #expect(
                try await eventually { reader.events(ofType: "message_received").count == count },
                "the reader has \(reader.events(ofType: "message_received").count)")
            #expect(try await eventually { try await api.get("/v3/users/\(cast[2])").rawJSON["is_online"] as? Bool == false })
            let resumed = try await api.events(cast.tokens[cast[2]]!, after: after)
            #expect(try await eventually { resumed.events(ofType: "message_received").count == count })
            let texts = resumed.events(ofType: "message_received").compactMap { ($0["data"] as? [String: Any])?["message"] as? String }
            #expect(texts.map { $0.prefix(while: { $0 != " " }) } == (0..<count).map { Substring(String($0)) })
            reader.close()
            resumed.close()
        }
    }

    @Test func theOldestSocketClosesWith4008BeyondTheCap() async throws {
        try await TestServer.withAPI({ $0.events.socketsPerUser = 2 }) { api in
            let cast = try await api.cast("cap", 1)
            let token = cast.tokens[cast[0]]!
            let first = try await api.events(token)
            try await Task.sleep(for: .milliseconds(20))
            let second = try await api.events(token)
            try await Task.sleep(for: .milliseconds(20))
            let third = try await api.events(token)
            #expect(try await first.closed() == 4008)
            try await Task.sleep(for: .milliseconds(200))
            #expect(!second.isClosed && !third.isClosed)
            second.close()
            third.close()
        }
    }

    static func number(after marker: String, in text: String) -> Int64? {
        guard let range = text.range(of: marker) else { return nil }
        return Int64(text[range.upperBound...].prefix(while: \.isNumber))
    }
}
