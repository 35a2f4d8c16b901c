import Foundation
import HTTPTypes
import OutboundPolicy
import ParleyContainer
import Postgres
import Testing

/// Requests per client address (issue 37): failed authentications and uploads, counted in the
/// database so that every instance enforces one limit, 429 with `Retry-After`.
@Suite struct AddressLimitTests {
    static func from(_ address: String) -> HTTPFields { [HTTPField.Name("X-Forwarded-For")!: address] }

    /// Servers on one database behind a trusted proxy (127.0.0.1), on one manual clock: three
    /// failed authentications a minute per address, two uploads.
    static func withServers(_ count: Int, _ time: ManualClock, _ body: @escaping @Sendable ([API]) async throws -> Void) async throws {
        try await OwnDatabase.with { database in
            let adjust: @Sendable (inout Config) -> Void = { config in
                config.databaseURL = database
                config.trustedProxies = [IPNetwork("127.0.0.1")!]
                config.addressLimits.authFailuresPerMinute = 3
                config.addressLimits.uploadsPerMinute = 2
            }
            try await TestServer.withAPI(adjust, clock: time.clock) { first in
                guard count > 1 else { return try await body([first]) }
                try await TestServer.withAPI(adjust, clock: time.clock) { second in try await body([first, second]) }
            }
        }
    }

    @Test func failedAuthenticationsFromOneAddressAreRefusedForAWhile() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServers(1, time) { apis in
            let api = apis[0]
            let cast = try await api.cast("al", 1)
            let (guesser, neighbour) = (Self.from("203.0.113.7"), Self.from("203.0.113.8"))
            let wrong: HTTPFields = [HTTPField.Name("Session-Token")!: "not-a-token"]
            for _ in 0..<3 {
                #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: guesser.merging(wrong), as: .none).status == 401)
            }
            let refused = try await api.raw(.get, "/v3/users/\(cast[0])", headers: guesser.merging(wrong), as: .none)
            #expect(refused.status == 429, "\(refused.text)")
            #expect(try refused.code == 500910)
            #expect(refused.headers[.retryAfter] == "20", "one more is admitted a third of a minute on")
            // Issue 50.4: valid credentials from that address pass (the other clients behind one
            // NAT or proxy), while the bad client goes on failing; no credentials at all are
            // refused too; the probes never are.
            for _ in 0..<3 {
                #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: guesser, as: cast.session(0)).status == 200)
                #expect(try await api.raw(.get, "/v3/users?limit=1", headers: guesser).status == 200)
                #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: guesser.merging(wrong), as: .none).status == 429)
                #expect(try await api.raw(.get, "/v3/users?limit=1", headers: guesser, as: .apiToken("wrong")).status == 429)
                #expect(try await api.raw(.get, "/v3/users", headers: guesser, as: .none).status == 429)
            }
            #expect(try await api.raw(.get, "/health", headers: guesser, as: .none).status == 200)
            #expect(try await api.raw(.get, "/ready", headers: guesser, as: .none).status == 200)
            // Another address is not held to it.
            #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: neighbour.merging(wrong), as: .none).status == 401)
            #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: neighbour, as: cast.session(0)).status == 200)
            // The refusals counted nothing: a third of a minute on, one more failure is admitted.
            time.advance(by: 20_000)
            #expect(try await api.raw(.get, "/v3/users/\(cast[0])", headers: guesser, as: cast.session(0)).status == 200)
            #expect(try await api.raw(.get, "/v3/users", headers: guesser, as: .none).status == 401)
            #expect(try await api.raw(.get, "/v3/users", headers: guesser, as: .none).status == 429)
        }
    }

    @Test func instancesOnOneDatabaseShareTheCount() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServers(2, time) { (apis: [API]) async throws in
            let guesser = Self.from("198.51.100.9")
            #expect(try await apis[0].raw(.get, "/v3/users", headers: guesser, as: .none).status == 401)
            #expect(try await apis[0].raw(.get, "/v3/users", headers: guesser, as: .none).status == 401)
            // The third, on the second instance, uses the limit up: that instance refuses the
            // address from then on; the first learns it at its next failure, which is not counted.
            #expect(try await apis[1].raw(.get, "/v3/users", headers: guesser, as: .none).status == 401)
            #expect(try await apis[1].raw(.get, "/v3/users", headers: guesser, as: .none).status == 429)
            #expect(try await apis[0].raw(.get, "/v3/users", headers: guesser, as: .none).status == 401)
            let refused = try await apis[0].raw(.get, "/v3/users", headers: guesser, as: .none)
            #expect(refused.status == 429)
            #expect(refused.headers[.retryAfter] == "20", "the uncounted failure did not push the wait further")
        }
    }

    @Test func uploadsPerAddressAreCountedBeforeTheirBodies() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServers(1, time) { apis in
            let api = apis[0]
            let cast = try await api.cast("alu", 2)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let (uploader, other) = (Self.from("192.0.2.44"), Self.from("192.0.2.45"))
            func upload(_ from: HTTPFields) async throws -> APIResponse {
                try await api.upload(channel, file: FormFile(bytes: Array(repeating: 7, count: 1000)), as: cast.session(0), headers: from)
            }
            #expect(try await upload(uploader).status == 201)
            #expect(try await upload(uploader).status == 201)
            let refused = try await upload(uploader)
            #expect(refused.status == 429, "\(refused.text)")
            #expect(refused.headers[.retryAfter] == "30")
            #expect(try await upload(other).status == 201)
            // Plain requests from that address go on; the refused upload left no message.
            let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=0&prev_limit=0&next_limit=10")
            #expect((history.rawJSON["messages"] as? [Any])?.count == 3, "\(history.text)")
            time.advance(by: 30_000)
            #expect(try await upload(uploader).status == 201)
        }
    }

    @Test func theEventStreamCountsFailedAuthenticationsToo() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await Self.withServers(1, time) { apis in
            let api = apis[0]
            let cast = try await api.cast("alw", 1)
            let port = try #require(api.client.port)
            let guesser = Self.from("203.0.113.99")
            for _ in 0..<3 {
                #expect(try await EventSocket(port: port, token: "not-a-token", headers: guesser).closed() == 4001)
            }
            #expect(try await EventSocket(port: port, token: "not-a-token", headers: guesser).closed() == 4029)
            // Issue 50.4: a right token from that address opens its stream (another client
            // behind the same address), while wrong ones go on being refused.
            let right = EventSocket(port: port, token: cast.tokens[cast.ids[0]]!, headers: guesser)
            _ = try await right.hello()
            right.close()
            #expect(try await EventSocket(port: port, token: "not-a-token", headers: guesser).closed() == 4029)
            // HTTP from that address is refused as well, on the same count.
            #expect(try await api.raw(.get, "/v3/users", headers: guesser, as: .none).status == 429)
            let elsewhere = EventSocket(port: port, token: cast.tokens[cast.ids[0]]!, headers: Self.from("203.0.113.98"))
            _ = try await elsewhere.hello()
            elsewhere.close()
        }
    }

    @Test func countsWhoseTimePassedAreSwept() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await OwnDatabase.with { database in
            try await TestServer.withAPI(
                { config in
                    config.databaseURL = database
                    config.trustedProxies = [IPNetwork("127.0.0.1")!]
                    config.addressLimits.authFailuresPerMinute = 3
                    config.jobs.enabled = true
                    config.jobs.pollInterval = .milliseconds(50)
                }, clock: time.clock
            ) { api in
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                func counted() throws -> Int { try connection.query("SELECT count(*) AS n FROM address_limits")[0].decode("n") }
                for address in ["203.0.113.1", "203.0.113.2"] {
                    #expect(try await api.raw(.get, "/v3/users", headers: Self.from(address), as: .none).status == 401)
                }
                #expect(try counted() == 2)
                // A minute on, both counts say nothing more than a missing row would: swept.
                time.advance(by: 61_000)
                #expect(try await eventually(within: .seconds(20)) { try counted() == 0 })
            }
        }
    }
}
