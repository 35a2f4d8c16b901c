import Foundation
import Testing

/// Edits and deletes of a message (API.md §4.4): who may make them, and what history shows after.
@Suite struct MessageEditTests: MessageFixtures {
    @Test func editsAndDeletesFollowTheRules() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("edit", 4)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]], "operator_ids": [users[2]]])
            let id = try await sendMany(api, url, 1, as: users.session(0))[0]
            let path = "/v3/group_channels/\(url)/messages/\(id)"
            #expect(try await api.put(path, ["message": "nope"], as: users.session(1)).status == 403)
            #expect(try await api.put(path, ["message": "nope"], as: users.session(3)).status == 404)
            let edited = try await api.put(path, ["message": "edited"], as: users.session(0))
            #expect(try edited.decode(MessageBody.self).message == "edited")
            #expect(try edited.decode(MessageBody.self).updatedAt > 0)
            #expect(try await api.put(path, ["custom_type": "op"], as: users.session(2)).status == 200)
            #expect(try await api.delete(path, as: users.session(1)).status == 403)
            #expect(try await api.delete(path, as: users.session(2)).status == 200)
            #expect(try await api.get(path, as: users.session(0)).status == 404)
            #expect(try await api.put(path, ["message": "again"]).status == 404)
            let history = try await api.get("/v3/group_channels/\(url)/messages", as: users.session(0))
            #expect(try history.decode(MessageList.self).messages.isEmpty)
            #expect(try await api.get("/v3/group_channels/\(url)/messages?include_removed=true", as: users.session(0)).status == 403)
            let removed = try await api.get("/v3/group_channels/\(url)/messages?include_removed=true")
            let first = try removed.decode(MessageList.self).messages.first
            #expect(first?.isRemoved == true)
            #expect(first?.message == "")
            #expect(try await api.get("/v3/group_channels/\(url)/messages/total_count").decode(TotalCountBody.self).total == 0)
            #expect(try await api.get("/v3/group_channels/\(url)/messages/abc").code == 400101)
        }
    }
}
