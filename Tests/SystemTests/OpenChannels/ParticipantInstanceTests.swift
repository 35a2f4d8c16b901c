import Foundation
import Testing

/// Participants across instances (API.md §8.3): the cap is exact when two instances race for
/// the last seats, and a dead instance's participants exit within 30 s.
@Suite struct ParticipantInstanceTests: ParticipantFixtures {
    @Test func twoInstancesRacingForTheLastSeatsFillExactlyTheCap() async throws {
        let cap = 5
        try await TestServer.withAPI({ $0.limits.openChannelParticipants = cap }) { first in
            try await TestServer.withAPI({ $0.limits.openChannelParticipants = cap }) { second in
                let cast = try await first.cast("race", 12)
                let url = try await Self.openChannel(first)
                // Two seats taken, then ten users race for the last three, half through each instance.
                for index in 0..<2 {
                    #expect(try await first.put("/v3/open_channels/\(url)/enter", ["user_id": cast[index]]).status == 200)
                }
                let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                    for index in 2..<12 {
                        let api = index % 2 == 0 ? first : second
                        group.addTask {
                            let response = try await api.put("/v3/open_channels/\(url)/enter", ["user_id": cast[index]])
                            return (response.status, response.status == 200 ? 0 : try response.code)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0.0 == 200 }.count == cap - 2)
                #expect(outcomes.filter { $0 == (403, 900400) }.count == 12 - cap)
                #expect(try await Self.participantIDs(second, url).count == cap)
                #expect(try await Self.participantCount(first, url) == cap)
            }
        }
    }

    @Test func aKilledInstancesParticipantsExitWithinThirtySeconds() async throws {
        try await TestServer.withAPI({ $0.events.instanceDeadAfter = .seconds(8) }) { survivor in
            let process = try await ServerProcess()
            defer { process.stop() }
            let cast = try await survivor.cast("ocdead", 2)
            let url = try await Self.openChannel(survivor)
            let watcher = try await survivor.events(cast.tokens[cast[0]]!)
            _ = try await watcher.hello()
            try watcher.send(["type": "enter", "channel_url": url])
            _ = try await watcher.waitForEvent("participant_entered")
            let doomed = EventSocket(port: process.port, token: cast.tokens[cast[1]]!)
            _ = try await doomed.hello()
            try doomed.send(["type": "enter", "channel_url": url])
            _ = try await watcher.waitFor {
                $0["type"] as? String == "participant_entered"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[1]
            }
            #expect(try await Self.participantCount(survivor, url) == 2)
            process.kill()
            let killedAt = ContinuousClock.now
            _ = try await watcher.waitFor(within: .seconds(30)) {
                $0["type"] as? String == "participant_exited"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[1]
            }
            #expect(ContinuousClock.now - killedAt < .seconds(30))
            #expect(try await Self.participantIDs(survivor, url) == [cast[0]])
            watcher.close()
        }
    }

    /// Each hub keeps who is in a channel in memory: an enter and an exit through one instance
    /// take effect on a socket of the other at once.
    @Test func enteringAndExitingOnOneInstanceTakesEffectOnTheOther() async throws {
        try await TestServer.withAPI { first in
            try await TestServer.withAPI { second in
                let cast = try await first.cast("ocmi", 2)
                let url = try await Self.openChannel(first)
                let messages = "/v3/open_channels/\(url)/messages"
                #expect(try await first.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(0)).status == 200)
                let listener = try await second.events(cast.tokens[cast[1]]!)
                _ = try await listener.hello()
                // Warm the second instance's copy: the sender's own socket there hears it, the
                // listener (not in the channel yet) does not. Recipients are decided at delivery,
                // so the enter waits for it.
                let watcher = try await second.events(cast.tokens[cast[0]]!)
                _ = try await watcher.hello()
                _ = try await first.post(messages, ["message_type": "MESG", "user_id": cast[0], "message": "before"], as: cast.session(0))
                _ = try await watcher.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "before" }
                #expect(try await first.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(1)).status == 200)
                _ = try await first.post(messages, ["message_type": "MESG", "user_id": cast[0], "message": "inside"], as: cast.session(0))
                _ = try await listener.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "inside" }
                #expect(try await first.put("/v3/open_channels/\(url)/exit", [:], as: cast.session(1)).status == 200)
                _ = try await listener.waitForEvent("participant_exited")
                _ = try await first.post(messages, ["message_type": "MESG", "user_id": cast[0], "message": "after"], as: cast.session(0))
                _ = try await first.post(messages, ["message_type": "MESG", "user_id": cast[0], "message": "later"], as: cast.session(0))
                _ = try await watcher.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "later" }
                try await Task.sleep(for: .milliseconds(200))
                let heard = listener.events(ofType: "message_received").compactMap { ($0["data"] as? [String: Any])?["message"] as? String }
                #expect(heard == ["inside"])
                listener.close()
                watcher.close()
            }
        }
    }
}
