import Foundation
import Testing

/// The server's chat history option: without it, a member who joins late sees only what comes after.
@Suite struct ChatHistoryOptionTests {
    @Test func withoutChatHistoryLateJoinersSeeOnlyNewMessages() async throws {
        // The join a millisecond after the first message; the second in the join's millisecond.
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI({ $0.chatHistory = false }, clock: time.clock) { api in
            let users = try await api.cast("latejoin", 2)
            let url = try await api.createChannel(["user_ids": [users[0]], "is_public": true])
            let path = "/v3/group_channels/\(url)/messages"
            #expect(try await api.post(path, ["message": "before"], as: users.session(0)).status == 201)
            time.advance(by: 1)
            #expect(try await api.put("/v3/group_channels/\(url)/join", [:], as: users.session(1)).status == 200)
            #expect(try await api.post(path, ["message": "after"], as: users.session(0)).status == 201)
            let seen = try await api.get(path, as: users.session(1))
            #expect(try seen.decode(MessageList.self).texts == ["after"])
            let all = try await api.get(path, as: users.session(0))
            #expect(try all.decode(MessageList.self).messages.count == 2)
        }
    }
}
