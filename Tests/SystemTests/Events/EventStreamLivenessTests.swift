import Foundation
import Postgres
import Synchronization
import Testing

/// Peers that go: a silent one dropped after the silence limit, many sockets closing at once leaving their users offline.
@Suite struct EventStreamLivenessTests {
    /// Pings every `pingInterval`; a peer that answers stays, one silent for `silenceLimit` goes.
    @Test func aSilentPeerIsDroppedAndOneThatAnswersPingsStays() async throws {
        try await TestServer.withAPI({
            $0.events.pingInterval = .milliseconds(250)
            $0.events.silenceLimit = .seconds(3)
        }) { api in
            let cast = try await api.cast("ping", 2)
            // The answering peer sends a pong (masked, empty) every 250 ms from a thread of its
            // own, so that a busy test process does not make it late.
            let answering = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await answering.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            let answers = Flag()
            DispatchQueue.global().async {
                while answers.isOn.load(ordering: .relaxed) {
                    answering.send([0x8A, 0x80, 1, 2, 3, 4])
                    usleep(250_000)
                }
            }
            defer { answers.isOn.store(false, ordering: .relaxed) }
            let silent = try api.rawEventStream(cast.tokens[cast[1]]!)
            let started = ContinuousClock.now
            let heard = await silent.readUntilClosed(timeout: .seconds(20))
            let dropped = ContinuousClock.now - started
            #expect(heard.closed)
            #expect(dropped >= .seconds(3), "dropped after \(dropped)")
            // Empty pings (0x89 0x00, decoded as U+FFFD and NUL) came before the drop; compared as
            // bytes, since the text around them is frame headers rather than text.
            let bytes = Array(heard.text.utf8)
            let ping: [UInt8] = [0xEF, 0xBF, 0xBD, 0x00]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: ping) })
            #expect(await answering.read(timeout: .milliseconds(200)) { _ in false }.closed == false)
            #expect(try await api.get("/v3/users/\(cast[0])").rawJSON["is_online"] as? Bool == true)
            #expect(try await eventually { try await api.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false })
        }
    }

    /// Many sockets closing at once (a proxy dropping its connections) are recorded together:
    /// every user is offline soon after. (Not the heartbeat's doing: it leaves a socket row younger
    /// than an instance's death limit, 20 s, to the close that will come.)
    @Test func manySocketsClosingAtOnceLeaveTheirUsersOffline() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("herd", 120)
            // Opened 20 at a time, so that a test run busy with other suites does not make the
            // opening the thing tested.
            var sockets: [RawConnection] = []
            for group in stride(from: 0, to: cast.ids.count, by: 20) {
                let opened = try cast.ids[group..<group + 20].map { try api.rawEventStream(cast.tokens[$0]!) }
                for socket in opened {
                    let hello = await socket.read(timeout: .seconds(30)) { $0.contains("\"ping_interval_ms\"") }
                    #expect(hello.text.contains("\"ping_interval_ms\""))
                }
                sockets += opened
            }
            #expect(try await api.get("/v3/users/\(cast[119])").rawJSON["is_online"] as? Bool == true)
            for socket in sockets { socket.hangUp() }
            let database = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            #expect(
                try await eventually(within: .seconds(15)) {
                    try database.query("SELECT count(*) AS n FROM event_sockets WHERE user_id = ANY($1::text[])", [cast.ids])[0].decode(
                        "n", as: Int64.self) == 0
                })
            for index in [0, 59, 119] {
                #expect(try await api.get("/v3/users/\(cast[index])").rawJSON["is_online"] as? Bool == false)
            }
        }
    }
}

private final class Flag: Sendable {
    let isOn = Atomic<Bool>(true)
}
