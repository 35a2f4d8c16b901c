import Foundation
import ParleyContainer
import Postgres
import Testing

/// Issue 10.16: PostgreSQL restarted (and, issue 29.13, crashed) while 16 clients send. The server answers 503 meanwhile,
/// never anything else and never crashes, serves again within 5 s of the database being back,
/// and every message it acknowledged with 201 is stored.
@Suite struct DatabaseRestartTests {
    struct Outcome: Sendable {
        let at: ContinuousClock.Instant
        let status: Int
        let messageID: Int?
    }

    @Test func sendsSurviveRestartsAndNothingAcknowledgedIsLost() async throws {
        let database = try await ScratchPostgres.start()
        do {
            try await run(database)
            await database.destroy()
        } catch {
            await database.destroy()
            throw error
        }
    }

    /// Issue 29.13: pooled connections that were idle when PostgreSQL crashed. The first
    /// statement on each gets a failed result with no SQLSTATE while libpq still calls the
    /// connection OK; it was answered 500/500901. Now each such connection is replaced, and the
    /// request, whose statement never ran, is served on the new one.
    @Test func idleConnectionsKilledByACrashAreReplaced() async throws {
        let database = try await ScratchPostgres.start()
        do {
            try await crashWhileIdle(database)
            await database.destroy()
        } catch {
            await database.destroy()
            throw error
        }
    }

    private func crashWhileIdle(_ database: ScratchPostgres) async throws {
        try migrate(database)
        try await TestServer.withAPI({
            $0.databaseURL = database.conninfo
            $0.databasePoolSize = 16
        }) { api in
            let users = try await api.cast("crashidle", 2)
            let url = try await api.createChannel(["user_ids": users.ids], as: users.session(0))
            let path = "/v3/group_channels/\(url)/messages"
            // Every pooled connection opened and used, then left idle; after the crash, sends
            // at once on as many connections, before the server's own background work (which
            // takes one connection at a time) has met each dead one.
            try await api.withConnections(24) { clients in
                let round = { @Sendable (label: String) async throws -> [Int] in
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for (index, client) in clients.enumerated() {
                            group.addTask {
                                try await client.post(path, ["message": "\(label) \(index)"], as: users.session(index % 2)).status
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                #expect(try await round("before").allSatisfy { $0 == 201 })
                try await database.crash()
                try await database.start()
                let after = try await round("after")
                #expect(after.allSatisfy { $0 == 201 || $0 == 503 }, "\(after)")
                let again = try await round("again")
                #expect(again.allSatisfy { $0 == 201 }, "served again: \(again)")
            }
        }
    }

    private func migrate(_ database: ScratchPostgres) throws {
        let migrator = Migrator(directory: TestServer.packageRoot.appendingPathComponent("migrations"), logger: TestServer.logger)
        try migrator.migrate(on: try PostgresConnection(conninfo: database.conninfo, logger: TestServer.logger))
    }

    private func run(_ database: ScratchPostgres) async throws {
        try migrate(database)
        let outcomes = Captured<[Outcome]>([])
        let backAt = Captured<[ContinuousClock.Instant]>([])
        try await TestServer.withAPI({
            $0.databaseURL = database.conninfo
            $0.databasePoolSize = 8
        }) { api in
            let users = try await api.cast("restart", 16)
            let url = try await api.createChannel(["user_ids": Array(users.ids.dropFirst())], as: users.session(0))
            let end = ContinuousClock.now + .seconds(14)
            try await api.withConnections(16) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask {
                            var sequence = 0
                            while ContinuousClock.now < end {
                                sequence += 1
                                let sent = try await client.post(
                                    "/v3/group_channels/\(url)/messages", ["message": "\(index)-\(sequence)"], as: users.session(index))
                                let messageID = try sent.status == 201 ? sent.decode(MessageBody.self).messageID : nil
                                outcomes.update { $0.append(Outcome(at: .now, status: sent.status, messageID: messageID)) }
                            }
                        }
                    }
                    group.addTask {
                        // A fast restart; a crash (an immediate stop, after which libpq's failed
                        // results carry no SQLSTATE while the connection still reads as OK) and
                        // a start at once; then a stop with two seconds of outage before the start.
                        try await Task.sleep(for: .seconds(1.5))
                        try await database.restart()
                        backAt.update { $0.append(.now) }
                        try await Task.sleep(for: .seconds(1.5))
                        try await database.crash()
                        try await database.start()
                        backAt.update { $0.append(.now) }
                        try await Task.sleep(for: .seconds(1.5))
                        try await database.stop()
                        try await Task.sleep(for: .seconds(2))
                        try await database.start()
                        backAt.update { $0.append(.now) }
                    }
                    try await group.waitForAll()
                }
            }
            #expect(try await api.get("/health", as: .none).status == 200)
        }
        let all = outcomes.value
        let acknowledged = all.compactMap { $0.status == 201 ? $0.messageID : nil }
        #expect(all.allSatisfy { $0.status == 201 || $0.status == 503 }, "\(Set(all.map(\.status)))")
        #expect(all.contains { $0.status == 503 }, "the outage was noticed")
        for back in backAt.value {
            let firstSuccess = all.filter { $0.at > back && $0.status == 201 }.map(\.at).min()
            let recovery = try #require(firstSuccess) - back
            #expect(recovery < .seconds(5), "served again \(recovery) after PostgreSQL was back")
            print("restart: first 201 \(recovery) after PostgreSQL was back")
        }
        let stored = try PostgresConnection(conninfo: database.conninfo, logger: TestServer.logger).query(
            "SELECT count(*) AS n FROM messages WHERE message_id = ANY($1::text[]::bigint[])", [acknowledged.map(String.init)]
        )[0].decode("n", as: Int.self)
        #expect(stored == acknowledged.count, "every acknowledged message is stored")
        print(
            "restart: \(all.count) sends, \(acknowledged.count) answered 201 and all stored, \(all.filter { $0.status == 503 }.count) answered 503"
        )
    }
}
