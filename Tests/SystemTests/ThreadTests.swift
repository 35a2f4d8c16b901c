import Foundation
import Testing

/// Threads (API.md §13.1): replies, the parent's `thread_info`, history with and without
/// replies, the thread listing.
@Suite struct ThreadTests: MessageFixtures {
    /// Sends a reply; returns its JSON.
    static func reply(
        _ api: API, _ channel: String, to parent: Int, _ text: String, toChannel: Bool = false, as credential: Credential
    ) async throws -> [String: Any] {
        let sent = try await api.post(
            "/v3/group_channels/\(channel)/messages",
            ["message": text, "parent_message_id": parent, "is_reply_to_channel": toChannel], as: credential)
        #expect(sent.status == 201, "\(sent.text)")
        return sent.rawJSON
    }

    static func threadInfo(_ message: [String: Any]?) -> [String: Any] {
        message?["thread_info"] as? [String: Any] ?? [:]
    }

    static func ids(_ response: APIResponse, _ key: String = "messages") -> [Int] {
        (response.rawJSON[key] as? [[String: Any]] ?? []).compactMap { $0["message_id"] as? Int }
    }

    @Test func repliesKeepTheParentsThreadInfoAndReachTheChannel() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thr", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let socket = try await api.events(cast.tokens[cast[2]]!)
            let first = try await Self.reply(api, channel, to: parent, "one", as: cast.session(1))
            #expect(first["parent_message_id"] as? Int == parent)
            #expect(first["is_reply_to_channel"] as? Bool == false)
            let info = first["parent_message_info"] as? [String: Any]
            #expect(info?["message_id"] as? Int == parent)
            #expect(info?["message"] as? String == "m0")
            #expect((info?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            _ = try await Self.reply(api, channel, to: parent, "two", as: cast.session(2))
            let last = try await Self.reply(api, channel, to: parent, "three", as: cast.session(1))

            let shown = try await api.get("/v3/group_channels/\(channel)/messages/\(parent)")
            let thread = Self.threadInfo(shown.rawJSON)
            #expect(thread["reply_count"] as? Int == 3)
            #expect(thread["last_replied_at"] as? Int == last["created_at"] as? Int)
            // The most replies first.
            #expect((thread["most_replies"] as? [[String: Any]])?.map { $0["user_id"] as? String } == [cast[1], cast[2]])
            #expect(shown.rawJSON["parent_message_id"] as? Int == 0)

            // The reply is a message of the channel, the parent's new count a message update.
            let received = try await socket.waitFor {
                $0["type"] as? String == "message_received" && ($0["data"] as? [String: Any])?["message"] as? String == "one"
            }
            #expect((received["data"] as? [String: Any])?["parent_message_id"] as? Int == parent)
            let updated = try await socket.waitFor {
                $0["type"] as? String == "message_updated" && Self.threadInfo($0["data"] as? [String: Any])["reply_count"] as? Int == 3
            }
            #expect((updated["data"] as? [String: Any])?["message_id"] as? Int == parent)
            socket.close()
        }
    }

    @Test func historyWithAndWithoutRepliesAndTheThreadListing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thh", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            var replies: [Int] = []
            for index in 0..<5 {
                replies.append(
                    try await Self.reply(api, channel, to: parent, "r\(index)", toChannel: index == 2, as: cast.session(1))["message_id"]
                        as! Int)
            }
            let after = try await sendMany(api, channel, 1, as: cast.session(0), prefix: "after")[0]
            let base = "/v3/group_channels/\(channel)/messages?message_ts=0&next_limit=50&prev_limit=0"
            #expect(Self.ids(try await api.get(base, as: cast.session(1))) == [parent, after])
            #expect(Self.ids(try await api.get("\(base)&include_reply_type=NONE", as: cast.session(1))) == [parent, after])
            #expect(Self.ids(try await api.get("\(base)&include_reply_type=all", as: cast.session(1))) == [parent] + replies + [after])
            let toChannel = try await api.get("\(base)&include_reply_type=ONLY_REPLY_TO_CHANNEL&include_parent_message_info=true")
            #expect(Self.ids(toChannel) == [parent, replies[2], after])
            let shownReply = (toChannel.rawJSON["messages"] as? [[String: Any]])?[1]
            #expect((shownReply?["parent_message_info"] as? [String: Any])?["message_id"] as? Int == parent)
            #expect(try await api.get("\(base)&include_reply_type=some").code == 400111)

            // The thread, paged like history, with its parent.
            let threadPath = "/v3/group_channels/\(channel)/messages/\(parent)/thread"
            let page = try await api.get("\(threadPath)?message_ts=0&next_limit=3&prev_limit=0", as: cast.session(0))
            #expect(page.status == 200, "\(page.text)")
            #expect(Self.ids(page) == Array(replies.prefix(3)))
            #expect((page.rawJSON["parent_message"] as? [String: Any])?["message_id"] as? Int == parent)
            let next = try await api.get(
                "\(threadPath)?message_id=\(replies[2])&include=false&next_limit=3&prev_limit=0", as: cast.session(0))
            #expect(Self.ids(next) == Array(replies.suffix(2)))
            let newest = try await api.get("\(threadPath)?prev_limit=2&next_limit=0", as: cast.session(0))
            #expect(Self.ids(newest) == Array(replies.suffix(2)))
            // A reply has no thread; an outsider sees none.
            #expect(try await api.get("/v3/group_channels/\(channel)/messages/\(replies[0])/thread").code == 400111)
            let outsider = try await api.cast("thho", 1)
            #expect(try await api.get(threadPath, as: outsider.session(0)).status >= 400)
            // A reply only in its thread is not the channel's last message.
            _ = try await Self.reply(api, channel, to: parent, "late", as: cast.session(1))
            let channelView = try await api.get("/v3/group_channels/\(channel)", as: cast.session(0))
            #expect((channelView.rawJSON["last_message"] as? [String: Any])?["message_id"] as? Int == after)
        }
    }

    @Test func aReplyNeedsAParentOfTheSameChannelThatIsNoReply() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thp", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let other = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let elsewhere = try await sendMany(api, other, 1, as: cast.session(0))[0]
            let reply = try await Self.reply(api, channel, to: parent, "r", as: cast.session(1))["message_id"] as! Int
            let removed = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            #expect(try await api.delete("/v3/group_channels/\(channel)/messages/\(removed)").status == 200)
            let path = "/v3/group_channels/\(channel)/messages"
            for bad: Any in [reply, elsewhere, removed, 987_654_321, -4, "x"] {
                let refused = try await api.post(path, ["message": "no", "parent_message_id": bad], as: cast.session(1))
                #expect(refused.status == 400, "\(bad): \(refused.text)")
                // Not a number: the type's code (400101); any other: 400111.
                #expect(try refused.code == (bad is String ? 400101 : 400111), "\(bad): \(refused.text)")
            }
            // Nothing was counted by the refusals.
            let thread = Self.threadInfo(try await api.get("\(path)/\(parent)").rawJSON)
            #expect(thread["reply_count"] as? Int == 1)
        }
    }

    @Test func deletesMoveTheCountAndADeletedParentKeepsItsReplies() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thd", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let a = try await Self.reply(api, channel, to: parent, "a", as: cast.session(1))
            let b = try await Self.reply(api, channel, to: parent, "b", as: cast.session(2))
            let path = "/v3/group_channels/\(channel)/messages"
            #expect(try await api.delete("\(path)/\(b["message_id"] as! Int)", as: cast.session(2)).status == 200)
            var thread = Self.threadInfo(try await api.get("\(path)/\(parent)").rawJSON)
            #expect(thread["reply_count"] as? Int == 1)
            #expect(thread["last_replied_at"] as? Int == a["created_at"] as? Int)
            #expect((thread["most_replies"] as? [[String: Any]])?.map { $0["user_id"] as? String } == [cast[1]])
            // Deleting the parent keeps the replies, and their thread.
            #expect(try await api.delete("\(path)/\(parent)", as: cast.session(0)).status == 200)
            let listed = try await api.get("\(path)/\(parent)/thread?message_ts=0&next_limit=10&prev_limit=0", as: cast.session(1))
            #expect(listed.status == 200, "\(listed.text)")
            #expect(Self.ids(listed) == [a["message_id"] as! Int])
            #expect((listed.rawJSON["parent_message"] as? [String: Any])?["is_removed"] as? Bool == true)
            #expect(try await api.get("\(path)/\(a["message_id"] as! Int)").status == 200)
            thread = Self.threadInfo(try await api.get("\(path)/\(parent)").rawJSON)
            #expect(thread["reply_count"] as? Int == 1)
        }
    }
}
