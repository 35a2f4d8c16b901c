import Foundation
import Testing

/// Entering and exiting open channels (API.md §8.3) over REST and the event stream, the cap, the list and the count.
@Suite struct ParticipantEntryTests: ParticipantFixtures {
    @Test func enteringAndExitingOverRESTKeepTheCountEqualToTheList() async throws {
        try await TestServer.withAPI({ $0.limits.openChannelParticipants = 2 }) { api in
            let cast = try await api.cast("part", 3)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            // Entering again renews: no second seat.
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).rawJSON["participant_count"] as? Int == 1)
            #expect(try await api.put("\(base)/enter", ["user_id": cast[1]]).status == 200)
            let full = try await api.put("\(base)/enter", [:], as: cast.session(2))
            #expect(full.status == 403)
            #expect(try full.code == 900400)
            // Acting for someone else is refused; the admin must name the user.
            #expect(try await api.put("\(base)/enter", ["user_id": cast[2]], as: cast.session(0)).status == 403)
            #expect(try await api.put("\(base)/enter", [:]).status == 400)
            let listed = try await api.get("\(base)/participants?limit=1")
            let first = try #require((listed.rawJSON["participants"] as? [[String: Any]])?.first)
            #expect(first["user_id"] as? String == cast[0])
            #expect(first["is_online"] as? Bool == false)
            #expect(first["is_muted"] as? Bool == false)
            let next = try #require(listed.rawJSON["next"] as? String)
            let second = try await api.get("\(base)/participants?limit=1&token=\(next)").rawJSON["participants"] as? [[String: Any]]
            #expect(second?.map { $0["user_id"] as? String } == [cast[1]])
            #expect(try await Self.participantCount(api, url) == 2)
            #expect(try await api.put("\(base)/exit", [:], as: cast.session(0)).status == 200)
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(2)).status == 200)
            #expect(try await Self.participantIDs(api, url) == [cast[1], cast[2]])
            #expect(try await Self.participantCount(api, url) == 2)
            #expect(try await api.put("/v3/open_channels/open_unknown/enter", [:], as: cast.session(0)).status == 404)
        }
    }

    @Test func aRESTEnterLapsesUnlessRenewedASocketHoldsOneUntilItCloses() async throws {
        try await TestServer.withAPI({
            $0.limits.openChannelEnterHoldMillis = 1_000
            $0.events.heartbeatInterval = .milliseconds(200)
        }) { api in
            let cast = try await api.cast("lapse", 3)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            let watcher = try await api.events(cast.tokens[cast[2]]!)
            _ = try await watcher.hello()
            try watcher.send(["type": "enter", "channel_url": url])
            _ = try await watcher.waitFor { $0["type"] as? String == "participant_entered" }
            // A REST-only enter holds for the configured time, then the sweep ends it (within the
            // usual wait: beside the whole system phase on two cores the sweep took over 15 s).
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let exited = try await watcher.waitFor {
                $0["type"] as? String == "participant_exited"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[0]
            }
            #expect(exited["channel_type"] as? String == "open")
            // A socket's enter holds while the socket is open, and ends when it closes.
            let holder = try await api.events(cast.tokens[cast[1]]!)
            _ = try await holder.hello()
            try holder.send(["type": "enter", "channel_url": url])
            _ = try await holder.waitFor { $0["type"] as? String == "participant_entered" }
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(try await Self.participantIDs(api, url).contains(cast[1]))
            holder.close()
            _ = try await watcher.waitFor {
                $0["type"] as? String == "participant_exited"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[1]
            }
            #expect(try await Self.participantIDs(api, url) == [cast[2]])
            #expect(try await Self.participantCount(api, url) == 1)
            // An exit frame leaves at once.
            try watcher.send(["type": "exit", "channel_url": url])
            #expect(try await eventually { try await Self.participantIDs(api, url).isEmpty })
            watcher.close()
        }
    }
}
