import Foundation
import Testing

/// Issue 10.2: limits count Unicode scalars, so a single grapheme cluster of thousands of
/// combining marks is too long, and no value can overflow a PostgreSQL index entry.
@Suite struct TextLimitTests {
    /// One "character" (grapheme cluster) of `marks` + 1 scalars.
    private func cluster(_ marks: Int) -> String {
        "a" + String(repeating: "\u{0301}", count: marks)
    }

    @Test func oneClusterOfThousandsOfMarksIsTooLongEverywhere() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("marks", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let messages = "/v3/group_channels/\(url)/messages"
            let sent = try await api.post(messages, ["message": "ok"], as: users.session(0))
            let messageID = try sent.decode(MessageBody.self).messageID
            let long = cluster(2000)
            let cases: [(String, APIResponse)] = [
                ("dedup_id", try await api.post(messages, ["message": "x", "dedup_id": long], as: users.session(0))),
                ("reaction", try await api.post("\(messages)/\(messageID)/reactions", ["reaction": long], as: users.session(0))),
                ("metadata key", try await api.put("/v3/users/\(users[0])/metadata", ["metadata": [long: "v"]], as: users.session(0))),
                (
                    "channel metadata key",
                    try await api.post("/v3/group_channels/\(url)/metadata", ["metadata": [long: "v"]], as: users.session(0))
                ),
                ("channel name", try await api.post("/v3/group_channels", ["user_ids": [], "name": long], as: users.session(0))),
                ("channel rename", try await api.put("/v3/group_channels/\(url)", ["name": long], as: users.session(0))),
                ("message", try await api.post(messages, ["message": cluster(6000)], as: users.session(0))),
                ("nickname", try await api.put("/v3/users/\(users[0])", ["nickname": long], as: users.session(0))),
                ("custom_type", try await api.post(messages, ["message": "x", "custom_type": long], as: users.session(0)))
            ]
            for (field, response) in cases {
                #expect(response.status == 400, "\(field): \(response.text)")
                #expect(try response.code == 400110, "\(field): \(response.text)")
            }
            let history = try await api.get("\(messages)?prev_limit=50", as: users.session(0))
            #expect(try history.decode(MessageList.self).messages.count == 1, "only the first message was stored")
        }
    }

    /// The widest values the limits allow, in four-byte scalars, fit every index.
    @Test func theLongestAllowedValuesAreStoredAndIndexed() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("wide", 1)
            let wide = { (count: Int) in String(repeating: "😀", count: count) }
            let url = try await api.createChannel(["user_ids": [], "name": wide(191)], as: users.session(0))
            let messages = "/v3/group_channels/\(url)/messages"
            let sent = try await api.post(
                messages, ["message": wide(5000), "dedup_id": wide(64), "custom_type": wide(128)], as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let messageID = try sent.decode(MessageBody.self).messageID
            #expect(try await api.post("\(messages)/\(messageID)/reactions", ["reaction": wide(128)], as: users.session(0)).status == 200)
            let metadata = try await api.post("/v3/group_channels/\(url)/metadata", ["metadata": [wide(128): wide(190)]])
            #expect(metadata.status == 201, "\(metadata.text)")
            #expect(
                try await api.put("/v3/users/\(users[0])/metadata", ["metadata": [wide(128): wide(190)]], as: users.session(0)).status
                    == 200)
            #expect(try await api.put("/v3/users/\(users[0])", ["nickname": wide(80)], as: users.session(0)).status == 200)
            let list = try await api.get("/v3/users/\(users[0])/my_group_channels?order=channel_name_alphabetical", as: users.session(0))
            #expect(try list.channelURLs == [url])
        }
    }
}
