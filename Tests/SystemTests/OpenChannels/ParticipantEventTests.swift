import Foundation
import Testing

/// The events of an open channel reach its current participants only, throttled for others' messages (API.md §8.4).
@Suite struct ParticipantEventTests: ParticipantFixtures {
    @Test func eventsReachTheCurrentParticipantsOnly() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocev", 3)
            let (sender, listener, outsider) = (cast[0], cast[1], cast[2])
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            let listenerSocket = try await api.events(cast.tokens[listener]!)
            let outsiderSocket = try await api.events(cast.tokens[outsider]!)
            _ = try await outsiderSocket.hello()
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(1)).status == 200)
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let entered = try await listenerSocket.waitFor {
                $0["type"] as? String == "participant_entered"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == sender
            }
            #expect(entered["channel_url"] as? String == url)
            _ = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "hello room"], as: cast.session(0))
            let received = try await listenerSocket.waitForEvent("message_received")
            #expect(received["channel_type"] as? String == "open")
            #expect((received["data"] as? [String: Any])?["channel_type"] as? String == "open")
            #expect(try await api.put(base, ["name": "Renamed"]).status == 200)
            let changed = try await listenerSocket.waitForEvent("channel_changed")
            #expect((changed["data"] as? [String: Any])?["participant_count"] as? Int == 2)
            // The listener leaves: nothing more reaches them.
            #expect(try await api.put("\(base)/exit", [:], as: cast.session(1)).status == 200)
            _ = try await listenerSocket.waitForEvent("participant_exited")
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "after"], as: cast.session(0))
            #expect(try await api.put("\(base)/freeze", ["freeze": true]).status == 200)
            // A socket of the sender, to know the events went out.
            let late = try await api.events(cast.tokens[sender]!, after: received["event_id"] as? Int64)
            _ = try await late.waitForEvent("channel_frozen")
            try await Task.sleep(for: .milliseconds(200))
            #expect(listenerSocket.events(ofType: "message_received").count == 1)
            #expect(listenerSocket.events(ofType: "channel_frozen").isEmpty)
            #expect(outsiderSocket.events.filter { $0["channel_url"] as? String == url }.isEmpty)
            for socket in [listenerSocket, outsiderSocket, late] { socket.close() }
        }
    }

    /// Smart throttling (API.md §8.4): 50 messages from others in about a second reach a
    /// participant at most 5 per second; their own, the admin's and operators' always; history
    /// keeps all.
    @Test func aParticipantsStreamCarriesAtMostFiveOthersMessagesPerSecond() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thr", 3)
            let (reader, talker, op) = (cast[0], cast[1], cast[2])
            let url = try await Self.openChannel(api, ["operator_ids": [op]])
            let base = "/v3/open_channels/\(url)"
            for index in 0..<3 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            let socket = try await api.events(cast.tokens[reader]!)
            _ = try await socket.hello()
            let start = ContinuousClock.now
            // Over ten connections: fifty requests queued on the one client connection outlasted
            // its read timeout when the whole suite loaded the two cores.
            try await api.withConnections(10) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask {
                            let response = try await clients[index % 10].post(
                                "\(base)/messages", ["message_type": "MESG", "user_id": talker, "message": "t\(index)"], as: cast.session(1)
                            )
                            guard response.status == 201 else { throw TestFailure("send answered \(response.status)") }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let seconds = Int((ContinuousClock.now - start).components.seconds) + 1
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": reader, "message": "mine"], as: cast.session(0))
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": op, "message": "operator"], as: cast.session(2))
            _ = try await api.post("\(base)/messages", ["message_type": "ADMM", "message": "admin"])
            for text in ["mine", "operator", "admin"] {
                _ = try await socket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == text }
            }
            let fromTalker = socket.events(ofType: "message_received").filter {
                (($0["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == talker
            }
            // At most 5 in each server second the sends spanned (and the one after, as a
            // delivery may fall into it).
            #expect(fromTalker.count >= 1)
            #expect(fromTalker.count <= 5 * (seconds + 1), "\(fromTalker.count) of 50 in \(seconds) s")
            #expect(try await api.get("\(base)/messages/total_count").rawJSON["total"] as? Int == 53)
            socket.close()
        }
    }
}
