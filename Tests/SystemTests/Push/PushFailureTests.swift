import Foundation
import Postgres
import Testing

extension PushWithProviders {
    /// What a provider's refusals do (API.md §12.6): dead tokens are removed, 429 and 5xx are retried
    /// for that device only (after `Retry-After`), and nothing is retried past the delivery limit.
    @Suite struct PushFailureTests: PushFixtures {
        static func tokens(_ api: API, _ cast: Cast, _ index: Int, _ type: String) async throws -> [String] {
            let list = try await api.get("/v3/users/\(cast[index])/push/\(type)", as: cast.session(index))
            return list.rawJSON["tokens"] as? [String] ?? []
        }

        @Test func tokensTheProvidersDeclareDeadAreRemoved() async throws {
            try await Self.withPushServer { api, standIn, _ in
                let cast = try await api.cast("pushdead", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let alive = Self.apnsToken()
                let dead = [
                    ("apns", Self.apnsToken("dead") as Any), ("apns", Self.apnsToken("0400") as Any),
                    ("gcm", "dead-\(UUID().uuidString)" as Any), ("gcm", "invalid-\(UUID().uuidString)" as Any),
                    ("huawei", "dead-\(UUID().uuidString)" as Any), ("web", try await standIn.webSubscription(gone: true) as Any)
                ]
                try await Self.register(api, cast, 1, "apns", alive)
                for (type, token) in dead { try await Self.register(api, cast, 1, type, token) }
                #expect(try await Self.tokens(api, cast, 1, "apns").count == 3)
                try await Self.send(api, channel, "hello", as: cast.session(0))
                for type in ["apns", "gcm", "huawei", "web"] {
                    let removed = try await eventually(within: .seconds(20)) {
                        try await Self.tokens(api, cast, 1, type) == (type == "apns" ? [alive] : [])
                    }
                    let left = try await Self.tokens(api, cast, 1, type)
                    #expect(removed, "\(type) tokens left: \(left)")
                }
                #expect(try await Self.texts(standIn, apns: alive) == ["hello"])
            }
        }

        @Test func throttledAndFailingDevicesAreRetriedAloneAfterRetryAfter() async throws {
            try await Self.withPushServer { api, standIn, _ in
                let cast = try await api.cast("pushretry", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let fine = Self.apnsToken()
                let throttled = Self.apnsToken("0429")
                let failing = Self.apnsToken("0500")
                let busy = "busy-\(UUID().uuidString)"
                for token in [fine, throttled, failing] { try await Self.register(api, cast, 1, "apns", token) }
                try await Self.register(api, cast, 1, "gcm", busy)
                try await Self.send(api, channel, "again", as: cast.session(0))
                #expect(
                    try await eventually(within: .seconds(20)) {
                        let throttledGot = try await Self.texts(standIn, apns: throttled)
                        let failingGot = try await Self.texts(standIn, apns: failing)
                        let busyGot = try await standIn.accepted("fcm", token: busy)
                        return throttledGot == ["again"] && failingGot == ["again"] && busyGot.count == 1
                    })
                // Each device got it once: the one that took it at once was not pushed again.
                #expect(try await Self.texts(standIn, apns: fine) == ["again"])
                let attempts = try await standIn.received("apns").filter { $0["token"] as? String == throttled }
                #expect(attempts.map { $0["status"] as? Int } == [429, 200])
                let gap = (attempts[1]["at"] as? Int ?? 0) - (attempts[0]["at"] as? Int ?? 0)
                #expect(gap >= 900, "Retry-After: 1 was honoured (\(gap) ms)")
                #expect(
                    try await standIn.received("fcm").filter { $0["token"] as? String == busy }.map { $0["status"] as? Int } == [429, 200])
            }
        }

        @Test func nothingIsRetriedPastTheDeliveryLimit() async throws {
            try await Self.withPushServer({ config in
                config.push.deliveryLimit = .seconds(4)
                config.push.sweepInterval = .milliseconds(200)
            }) { api, standIn, database in
                let cast = try await api.cast("pushlimit", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let unavailable = Self.apnsToken("0555")
                try await Self.register(api, cast, 1, "apns", unavailable)
                try await Self.send(api, channel, "never", as: cast.session(0))
                func attempts() async throws -> Int {
                    try await standIn.received("apns").filter { $0["token"] as? String == unavailable }.count
                }
                #expect(try await eventually(within: .seconds(20)) { try await attempts() >= 2 })
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                func waiting() throws -> Int64 {
                    try connection.query("SELECT (SELECT count(*) FROM push_queue) + (SELECT count(*) FROM push_retries) AS n")[0].decode(
                        "n")
                }
                #expect(try await eventually(within: .seconds(20)) { try waiting() == 0 })
                let tried = try await attempts()
                try await Task.sleep(for: .seconds(2))
                #expect(try await attempts() == tried, "no attempt after the limit")
                #expect(try await Self.tokens(api, cast, 1, "apns") == [unavailable], "an unavailable provider kills no token")
            }
        }
    }
}
