import Foundation
import Testing

/// History (API.md §4.3): windows around an id or a time, filters, and what a user's reset or hiding leaves them.
@Suite struct MessageHistoryTests: MessageFixtures {
    private func texts(_ response: APIResponse) throws -> [String] {
        try response.decode(MessageList.self).texts
    }

    @Test func historyWindowsAroundAnIDAndATimestamp() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("history", 1)
            let url = try await api.createChannel(["user_ids": [users[0]]])
            let ids = try await sendMany(api, url, 10, as: users.session(0))
            let base = "/v3/group_channels/\(url)/messages"
            let around = try await api.get("\(base)?message_id=\(ids[5])&prev_limit=2&next_limit=3")
            #expect(try texts(around) == ["m3", "m4", "m5", "m6", "m7", "m8"])
            let excluded = try await api.get("\(base)?message_id=\(ids[5])&prev_limit=2&next_limit=3&include=false")
            #expect(try texts(excluded) == ["m3", "m4", "m6", "m7", "m8"])
            let reversed = try await api.get("\(base)?message_id=\(ids[5])&prev_limit=1&next_limit=1&reverse=true")
            #expect(try texts(reversed) == ["m6", "m5", "m4"])
            let newest = try await api.get("\(base)?prev_limit=3&next_limit=0")
            #expect(try texts(newest) == ["m7", "m8", "m9"])
            let oldest = try await api.get("\(base)?message_ts=0&prev_limit=0&next_limit=2")
            #expect(try texts(oldest) == ["m0", "m1"])
            let anchor = try await api.get("\(base)/\(ids[2])")
            let ts = try anchor.decode(MessageBody.self).createdAt
            let byTime = try await api.get("\(base)?message_ts=\(ts)&prev_limit=1&next_limit=0")
            #expect(try texts(byTime) == ["m1", "m2"])
            let byTimeExcluded = try await api.get("\(base)?message_ts=\(ts)&prev_limit=1&next_limit=1&include=false")
            #expect(try texts(byTimeExcluded) == ["m1", "m3"])
            #expect(try await api.get("\(base)?prev_limit=201").code == 400111)
            #expect(try await api.get("\(base)?message_id=\(Int.max)").code == 400201)
            #expect(try await api.get("\(base)?message_type=TXT").code == 400111)
        }
    }

    @Test func historyFiltersByTypeCustomTypeAndSender() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("filters", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let path = "/v3/group_channels/\(url)/messages"
            _ = try await api.post(path, ["message": "a", "custom_type": "x"], as: users.session(0))
            _ = try await api.post(path, ["message": "b", "custom_type": "y"], as: users.session(1))
            _ = try await api.post(path, ["message_type": "ADMM", "message": "c"])
            #expect(try texts(try await api.get("\(path)?message_type=ADMM")) == ["c"])
            #expect(try texts(try await api.get("\(path)?custom_types=y")) == ["b"])
            #expect(try texts(try await api.get("\(path)?sender_ids=\(users[0])")) == ["a"])
        }
    }

    @Test func ephemeralChannelsKeepNoHistory() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("ephemeral", 1)
            let url = try await api.createChannel(["user_ids": [users[0]], "is_ephemeral": true])
            let sent = try await api.post("/v3/group_channels/\(url)/messages", ["message": "gone"], as: users.session(0))
            #expect(sent.status == 201)
            #expect(try sent.decode(MessageBody.self).message == "gone")
            #expect(try texts(try await api.get("/v3/group_channels/\(url)/messages")).isEmpty)
            #expect(try await api.get("/v3/group_channels/\(url)/messages/total_count").decode(TotalCountBody.self).total == 0)
        }
    }

    @Test func resetHistoryAndHidePreviousMessagesHideOlderMessagesForThatUserOnly() async throws {
        // The reset comes after the old messages and before the new one. A channel's messages take
        // successive milliseconds from the clock's on (the two old ones the first two), so the
        // clock moves well past them.
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let users = try await api.cast("visible", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]]])
            _ = try await sendMany(api, url, 2, as: users.session(0), prefix: "old")
            time.advance(by: 5)
            #expect(try await api.put("/v3/group_channels/\(url)/reset_user_history", [:], as: users.session(1)).status == 200)
            #expect(
                try await api.put("/v3/group_channels/\(url)/hide", ["hide_previous_messages": true], as: users.session(2)).status == 200)
            time.advance(by: 5)
            _ = try await sendMany(api, url, 1, as: users.session(0), prefix: "new")
            let path = "/v3/group_channels/\(url)/messages"
            #expect(try texts(try await api.get(path, as: users.session(0))) == ["old0", "old1", "new0"])
            #expect(try texts(try await api.get(path, as: users.session(1))) == ["new0"])
            #expect(try texts(try await api.get(path, as: users.session(2))) == ["new0"])
            #expect(try texts(try await api.get("\(path)?user_id=\(users[1])")) == ["new0"])
            #expect(try await api.get("\(path)/total_count", as: users.session(1)).decode(TotalCountBody.self).total == 1)
        }
    }
}
