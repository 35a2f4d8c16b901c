import Foundation
import Testing

/// Issue 29.4: reactions are capped per message and per user (configuration), exactly also under
/// concurrent adds, so no one can make a message (and every page that carries it) grow without end.
@Suite struct ReactionLimitTests {
    @Test func keysPerMessageAndPerUserAreCapped() async throws {
        try await TestServer.withAPI({
            $0.limits.reactionKeysPerMessage = 3
            $0.limits.reactionsPerUserPerMessage = 2
        }) { api in
            let cast = try await api.cast("reactcap", 3)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "react"], as: cast.session(0))
            let path = "/v3/group_channels/\(channel)/messages/\(try #require(sent.rawJSON["message_id"] as? Int))/reactions"
            func react(_ user: Int, _ key: String) async throws -> APIResponse {
                try await api.post(path, ["reaction": key], as: cast.session(user))
            }
            #expect(try await react(0, "a").status == 200)
            #expect(try await react(0, "b").status == 200)
            let third = try await react(0, "c")
            #expect(try third.status == 409 && third.code == 400203, "a third of one user's: \(third.text)")
            #expect(try await react(0, "a").status == 200, "one the user has already")
            #expect(try await react(1, "c").status == 200)
            let fourth = try await react(2, "d")
            #expect(try fourth.status == 409 && fourth.code == 400203, "a fourth key: \(fourth.text)")
            #expect(try await react(2, "a").status == 200, "a key the message has")
            let keys = try await api.get(path, as: cast.session(1)).rawJSON["reactions"] as? [[String: Any]]
            #expect(keys?.compactMap { $0["key"] as? String } == ["a", "b", "c"])
        }
    }

    @Test func concurrentNewKeysStopExactlyAtTheLimit() async throws {
        try await TestServer.withAPI({ $0.limits.reactionKeysPerMessage = 5 }) { api in
            let cast = try await api.cast("reactrace", 12)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "race"], as: cast.session(0))
            let path = "/v3/group_channels/\(channel)/messages/\(try #require(sent.rawJSON["message_id"] as? Int))/reactions"
            let statuses = try await api.withConnections(12) { clients in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask { try await client.post(path, ["reaction": "k\(index)"], as: cast.session(index)).status }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(statuses.filter { $0 == 200 }.count == 5 && statuses.filter { $0 == 409 }.count == 7, "\(statuses)")
            #expect((try await api.get(path).rawJSON["reactions"] as? [Any])?.count == 5)
        }
    }
}
