import Foundation
import Postgres
import Testing

extension PushWithProviders {
    /// Several instances on one push queue (API.md §12.6): online anywhere means no push, a dead
    /// instance's claims are sent by another, each push goes out once, and a send that rolls back
    /// pushes nothing.
    @Suite struct PushInstanceTests: PushFixtures {
        @Test func aSocketOnAnotherInstanceMeansNoPush() async throws {
            try await Self.withPushServer { first, standIn, database in
                // The second instance has no providers: every push is dispatched by the first.
                try await TestServer.withAPI({ $0.databaseURL = database }) { second in
                    let cast = try await first.cast("pushtwo", 3)
                    let channel = try await first.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
                    let tokens = [Self.apnsToken(), Self.apnsToken()]
                    try await Self.register(first, cast, 1, "apns", tokens[0])
                    try await Self.register(first, cast, 2, "apns", tokens[1])
                    let socket = try await second.events(cast.tokens[cast[1]]!)
                    try await Self.send(first, channel, "while online on the other instance", as: cast.session(0))
                    try await Self.barrier(first, standIn, channel, as: cast.session(0), tokens: [tokens[1]])
                    #expect(try await Self.texts(standIn, apns: tokens[0]).isEmpty)
                    socket.close()
                    #expect(try await eventually { try await first.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false })
                    try await Self.send(second, channel, "offline now", as: cast.session(0))
                    #expect(
                        try await eventually(within: .seconds(20)) { try await Self.texts(standIn, apns: tokens[0]) == ["offline now"] })
                }
            }
        }

        @Test func twoInstancesWithProvidersPushEachMessageOnce() async throws {
            try await Self.withPushServer { first, standIn, database in
                try await TestServer.withAPI({ config in
                    config.databaseURL = database
                    standIn.configure(&config)
                }) { second in
                    let cast = try await first.cast("pushonce", 3)
                    let channel = try await first.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
                    let tokens = [Self.apnsToken(), Self.apnsToken()]
                    try await Self.register(first, cast, 1, "apns", tokens[0])
                    try await Self.register(first, cast, 2, "apns", tokens[1])
                    for index in 0..<30 {
                        try await Self.send(index.isMultiple(of: 2) ? first : second, channel, "m\(index)", as: cast.session(0))
                    }
                    for token in tokens {
                        #expect(try await eventually(within: .seconds(20)) { try await Self.texts(standIn, apns: token).count >= 30 })
                    }
                    try await Task.sleep(for: .milliseconds(500))
                    for token in tokens {
                        let texts = try await Self.texts(standIn, apns: token)
                        #expect(texts.count == 30, "each message once")
                        #expect(Set(texts) == Set((0..<30).map { "m\($0)" }))
                    }
                }
            }
        }

        /// An instance claimed a push and died before sending it: once its lease lapses, another
        /// instance sends it.
        @Test func aPushClaimedByADeadInstanceIsSentByAnother() async throws {
            let standIn = try PushStandIn.shared.get()
            try await OwnDatabase.with { database in
                let token = Self.apnsToken()
                // The queue is filled by an instance without providers, which claims nothing.
                try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                    let cast = try await api.cast("pushdeadinst", 2)
                    let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                    try await Self.register(api, cast, 1, "apns", token)
                    try await Self.send(api, channel, "orphan", as: cast.session(0))
                }
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                #expect(try connection.execute("UPDATE push_queue SET claimed_until = \(now + 1500), attempts = 1").affectedRows == 1)
                try await TestServer.withAPI({ config in
                    config.databaseURL = database
                    standIn.configure(&config)
                }) { _ in
                    try await Task.sleep(for: .milliseconds(700))
                    #expect(try await Self.texts(standIn, apns: token).isEmpty, "sent while another instance held it")
                    #expect(try await eventually(within: .seconds(10)) { try await Self.texts(standIn, apns: token) == ["orphan"] })
                }
            }
        }

        /// The push row is written by the send's own statement: a send whose transaction fails
        /// afterwards (here: the event insert, made to fail by a trigger) leaves no push behind.
        @Test func aSendThatRollsBackPushesNothing() async throws {
            try await Self.withPushServer { api, standIn, database in
                let cast = try await api.cast("pushrollback", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let token = Self.apnsToken()
                try await Self.register(api, cast, 1, "apns", token)
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                _ = try connection.execute(
                    """
                    CREATE FUNCTION fail_marked_event() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF NEW.data::text LIKE '%roll-me-back%' THEN RAISE EXCEPTION 'rolled back by the test'; END IF;
                        RETURN NEW;
                    END $$;
                    CREATE TRIGGER fail_marked_event BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION fail_marked_event();
                    """)
                let failed = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message": "roll-me-back"], as: cast.session(0))
                #expect(failed.status >= 500, "\(failed.text)")
                let stored: Int64 = try connection.query("SELECT count(*) AS n FROM messages WHERE message = 'roll-me-back'")[0].decode("n")
                #expect(stored == 0)
                try await Self.barrier(api, standIn, channel, as: cast.session(0), tokens: [token])
                #expect(try await Self.texts(standIn, apns: token).allSatisfy { $0.hasPrefix("barrier-") })
            }
        }
    }
}
