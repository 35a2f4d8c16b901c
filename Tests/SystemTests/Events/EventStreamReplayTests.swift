import Foundation
import Testing

/// Reconnecting with `after` (API.md §6.2): a replay that misses and repeats nothing, a resync for an id too old or unknown.
@Suite struct EventStreamReplayTests {
    @Test func replayAfterAReconnectMissesNothingAndRepeatsNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evp", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let token = cast.tokens[cast[1]]!
            let first = try await api.events(token)
            for index in 0..<5 {
                _ = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
            }
            _ = try await first.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "m4" }
            let seen = first.events(ofType: "message_received")
            let last = try #require(seen.compactMap { $0["event_id"] as? Int }.max())
            let cut = seen.compactMap { $0["event_id"] as? Int }.sorted()[2]
            first.close()
            // Sends while nobody is connected, and while the second socket replays.
            let sender = Task {
                for index in 5..<15 {
                    _ = try await api.post(
                        "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            let second = try await api.events(token, after: Int64(cut))
            try await sender.value
            _ = try await second.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "m14" }
            try await Task.sleep(for: .milliseconds(200))
            let texts = second.events(ofType: "message_received").compactMap { ($0["data"] as? [String: Any])?["message"] as? String }
            #expect(texts == (3..<15).map { "m\($0)" })
            let ids = second.events.compactMap { $0["event_id"] as? Int }
            #expect(ids == ids.sorted())
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy { $0 > cut })
            _ = last
            second.close()
        }
    }

    @Test func anAfterTooOldOrUnknownAsksForAResyncAndTheStreamGoesOn() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evs", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            // An id this server never handed out (a restored database, another deployment).
            let unknown: Int64 = 999_999_999_999
            let socket = EventSocket(port: try #require(api.client.port), token: cast.tokens[cast[1]]!, query: "after=\(unknown)")
            _ = try await socket.waitForEvent("resync_required")
            let hello = try await socket.hello()
            #expect((hello["last_event_id"] as? Int ?? .max) < Int(unknown))
            // The stream is live from where the server is, not from the unknown id.
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "still here"])
            _ = try await socket.waitForEvent("message_received")
            socket.close()
        }
    }
}
