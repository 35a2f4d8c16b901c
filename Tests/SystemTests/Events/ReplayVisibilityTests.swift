import Foundation
import Testing

/// Issue 29.7: a replay (`after`) shows a user only what they could read when each event
/// happened, and never what a message said once it has been deleted.
@Suite struct ReplayVisibilityTests {
    private func cursor(_ api: API, _ token: String) async throws -> Int64 {
        let socket = try await api.events(token)
        defer { socket.close() }
        let hello = try await socket.hello()
        return try #require((hello["last_event_id"] as? NSNumber)?.int64Value)
    }

    private func texts(_ socket: EventSocket) -> [String] {
        socket.events.compactMap { event in
            guard ["message_received", "message_updated"].contains(event["type"] as? String) else { return nil }
            return (event["data"] as? [String: Any])?["message"] as? String
        }
    }

    @Test func aNewcomersReplayHoldsNothingFromBeforeTheyCameIn() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("replayjoin", 3)
            let (speaker, joiner, invitee) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [speaker], "is_public": true])
            let base = "/v3/group_channels/\(channel)/messages"
            let joinerCursor = try await cursor(api, cast.tokens[joiner]!)
            let inviteeCursor = try await cursor(api, cast.tokens[invitee]!)

            let deleted = try await api.post(base, ["message": "deleted before they came"], as: cast.session(0))
            #expect(
                try await api.delete("\(base)/\(try #require(deleted.rawJSON["message_id"] as? Int))", as: cast.session(0)).status == 200)
            let edited = try await api.post(base, ["message": "as first written"], as: cast.session(0))
            let editedID = try #require(edited.rawJSON["message_id"] as? Int)
            #expect(try await api.put("\(base)/\(editedID)", ["message": "as edited"], as: cast.session(0)).status == 200)

            #expect(try await api.put("/v3/group_channels/\(channel)/join", [:], as: cast.session(1)).status == 200)
            #expect(try await api.post("/v3/group_channels/\(channel)/invite", ["user_ids": [invitee]], as: cast.session(0)).status == 200)
            for (user, after) in [(joiner, joinerCursor), (invitee, inviteeCursor)] {
                let socket = try await api.events(cast.tokens[user]!, after: after)
                // A message after they came in is theirs, live or replayed.
                _ = try await api.post(base, ["message": "after \(user) came"], as: cast.session(0))
                _ = try await socket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "after \(user) came" }
                #expect(texts(socket).allSatisfy { $0.hasPrefix("after ") }, "\(user): \(texts(socket))")
                #expect(!socket.events(ofType: "member_joined").isEmpty, "\(user) still gets their own joining")
                socket.close()
            }
        }
    }

    @Test func aMembersReplayNeverShowsWhatADeletedMessageSaid() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("replaydel", 2)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let base = "/v3/group_channels/\(channel)/messages"
            let after = try await cursor(api, cast.tokens[cast[1]]!)
            // The sender's socket tells when the instance has delivered the deletion: a socket
            // opened after that replays all of it (what comes later arrives live, as it happens).
            let sender = try await api.events(cast.tokens[cast[0]]!)
            let gone = try await api.post(base, ["message": "regretted"], as: cast.session(0))
            let goneID = try #require(gone.rawJSON["message_id"] as? Int)
            #expect(try await api.put("\(base)/\(goneID)", ["message": "regretted, edited"], as: cast.session(0)).status == 200)
            _ = try await api.post(base, ["message": "kept"], as: cast.session(0))
            #expect(try await api.delete("\(base)/\(goneID)", as: cast.session(0)).status == 200)
            _ = try await sender.waitForEvent("message_deleted")
            sender.close()

            let socket = try await api.events(cast.tokens[cast[1]]!, after: after)
            _ = try await api.post(base, ["message": "marker"], as: cast.session(0))
            _ = try await socket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "marker" }
            #expect(texts(socket) == ["kept", "marker"], "\(texts(socket))")
            let deletions = socket.events(ofType: "message_deleted").compactMap { ($0["data"] as? [String: Any])?["message_id"] as? Int }
            #expect(deletions == [goneID])
            socket.close()
        }
    }
}
