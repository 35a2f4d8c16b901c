import Foundation
import Testing

/// Text whose quote or backslash merges with the next scalar into one Character (a combining
/// mark, a skin-tone modifier): found by schemathesis as a 500 once such text went into a
/// text[] array literal (event payloads, mentioned users). It must be stored and read back as
/// sent, and its events must go out.
@Suite struct GraphemeEscapingTests {
    @Test func quotesAndBackslashesFollowedByCombiningMarksRoundTrip() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("grph", 2)
            let socket = try await api.events(cast.tokens[cast[1]]!)
            _ = try await socket.hello()
            let group = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let names = ["\"\u{301}", "\\\u{301}", "\u{301}", "a\\\"\u{301}\\"]
            for name in names {
                let changed = try await api.put("/v3/group_channels/\(group)", ["name": name])
                #expect(changed.status == 200, "\(changed.text)")
                #expect(changed.rawJSON["name"] as? String == name)
                let event = try await socket.waitFor {
                    $0["type"] as? String == "channel_changed" && ($0["data"] as? [String: Any])?["name"] as? String == name
                }
                #expect(event["channel_url"] as? String == group)
            }
            // Literals stay out of #expect: its expansion quotes the expression's source text.
            let quoteMark = "\"\u{301}"
            let backslashMark = "\\\u{301}"
            let nickname = try await api.put("/v3/users/\(cast[0])", ["nickname": quoteMark])
            #expect(nickname.status == 200)
            let sent = try await api.post(
                "/v3/group_channels/\(group)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "\"\u{301}hi"],
                as: cast.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let text = sent.rawJSON["message"] as? String
            #expect(text == quoteMark + "hi")
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            let reacted = try await api.post(
                "/v3/group_channels/\(group)/messages/\(id)/reactions", ["user_id": cast[1], "reaction": "\"\u{1F3FB}"],
                as: cast.session(1))
            #expect(reacted.status == 200, "\(reacted.text)")
            let open = try #require(try await api.post("/v3/open_channels", [:]).rawJSON["channel_url"] as? String)
            let renamed = try await api.put("/v3/open_channels/\(open)", ["name": backslashMark])
            #expect(renamed.rawJSON["name"] as? String == backslashMark)
            let metadata = try await api.put("/v3/open_channels/\(open)/metadata", ["metadata": ["k": quoteMark], "upsert": true])
            #expect(metadata.status == 200)
            socket.close()
        }
    }

    /// An empty `dedup_id` is no dedup_id: two sends are two messages.
    @Test func anEmptyDedupIDDeduplicatesNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("nodedup", 1)
            let group = try await api.createChannel(["user_ids": [cast[0]]])
            var ids: [Int] = []
            for text in ["x", "y"] {
                let sent = try await api.post(
                    "/v3/group_channels/\(group)/messages", ["message_type": "MESG", "user_id": cast[0], "message": text, "dedup_id": ""])
                #expect(sent.status == 201)
                ids += [sent.rawJSON["message_id"] as? Int ?? 0]
            }
            #expect(Set(ids).count == 2)
        }
    }
}
