import Foundation
import Testing

/// Blocks (API.md §7.3, ../reference/block-unblock.txt) through HTTP and the event stream.
@Suite struct BlockTests {
    private func send(_ api: API, _ channel: String, _ text: String, as credential: Credential, extra: [String: Any] = [:])
        async throws -> [String: Any]
    {
        var body: [String: Any] = ["message_type": "MESG", "message": text]
        body.merge(extra) { _, new in new }
        let response = try await api.post("/v3/group_channels/\(channel)/messages", body, as: credential)
        guard response.status == 201 else { throw TestFailure("send answered \(response.status): \(response.text)") }
        return response.rawJSON
    }

    private func texts(_ api: API, _ channel: String, as credential: Credential) async throws -> [String] {
        let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max)&prev_limit=50", as: credential)
        return (history.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    private func unread(_ api: API, _ userID: String) async throws -> Int {
        try await api.get("/v3/users/\(userID)/unread_message_count").decode(UnreadCountBody.self).unreadCount
    }

    @Test func inAOneToOneChannelTheBlockerNeverSeesWhatWasSentWhileBlocked() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("block1", 3)
            let (sender, blocker, friend) = (cast[0], cast[1], cast[2])
            let pair = try await api.createChannel(["user_ids": [sender, blocker], "is_distinct": true])
            let elsewhere = try await api.createChannel(["user_ids": [blocker, friend]])
            let (senderSide, blockerSide) = (cast.session(0), cast.session(1))
            _ = try await send(api, pair, "before", as: senderSide)
            #expect(try await api.put("/v3/group_channels/\(pair)/messages/mark_as_read", [:], as: blockerSide).status == 200)
            let blockerSocket = try await api.events(cast.tokens[blocker]!)
            let senderSocket = try await api.events(cast.tokens[sender]!)

            let block = try await api.post("/v3/users/\(blocker)/block", ["target_id": sender], as: blockerSide)
            #expect(block.status == 200, "\(block.text)")
            #expect((block.rawJSON["users"] as? [[String: Any]])?.first?["user_id"] as? String == sender)
            _ = try await send(api, elsewhere, "meanwhile", as: cast.session(2))
            let hidden = try await send(
                api, pair, "while blocked", as: senderSide, extra: ["mentioned_user_ids": [blocker], "mention_type": "users"])
            let hiddenID = try #require(hidden["message_id"] as? Int)

            // The sender sees it as sent, and hears of it.
            #expect(try await texts(api, pair, as: senderSide) == ["before", "while blocked"])
            _ = try await senderSocket.waitFor { $0["type"] as? String == "message_received" }
            // The blocker: not in history, last message, counts, the channel list's order, or a single read.
            #expect(try await texts(api, pair, as: blockerSide) == ["before"])
            let view = try await api.get("/v3/group_channels/\(pair)", as: blockerSide)
            #expect((view.rawJSON["last_message"] as? [String: Any])?["message"] as? String == "before", "\(view.text)")
            #expect(view.rawJSON["unread_message_count"] as? Int == 0)
            #expect(view.rawJSON["unread_mention_count"] as? Int == 0)
            #expect(try await unread(api, blocker) == 1, "only \"meanwhile\"")
            let list = try await api.get("/v3/users/\(blocker)/my_group_channels?order=latest_last_message", as: blockerSide)
            let order = (list.rawJSON["channels"] as? [[String: Any]] ?? []).compactMap { $0["channel_url"] as? String }
            #expect(order == [elsewhere, pair], "\(list.text)")
            #expect(try await api.get("/v3/group_channels/\(pair)/messages/\(hiddenID)", as: blockerSide).status == 404)
            let total = try await api.get("/v3/group_channels/\(pair)/messages/total_count", as: blockerSide)
            #expect(total.rawJSON["total"] as? Int == 1, "\(total.text)")
            // Its reactions and deletion stay out of the blocker's stream too.
            let reaction = try await api.post(
                "/v3/group_channels/\(pair)/messages/\(hiddenID)/reactions", ["user_id": sender, "reaction": "smile"], as: senderSide)
            #expect(reaction.status == 200, "\(reaction.text)")
            #expect(try await api.delete("/v3/group_channels/\(pair)/messages/\(hiddenID)", as: senderSide).status == 200)
            #expect(try await unread(api, blocker) == 1, "removing a hidden message corrects nothing")

            // After an unblock new messages arrive; the hidden one stays hidden.
            #expect(try await api.delete("/v3/users/\(blocker)/block/\(sender)", as: blockerSide).status == 200)
            _ = try await send(api, pair, "after", as: senderSide)
            let after = try await blockerSocket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "after" }
            #expect(after["type"] as? String == "message_received")
            #expect(try await texts(api, pair, as: blockerSide) == ["before", "after"])
            #expect(try await unread(api, blocker) == 2)
            // The message events of the pair (the blocker's own read and "before", from before the
            // socket opened, may come too: the socket starts where its instance had delivered to).
            let messageEvents = ["message_received", "message_updated", "message_deleted", "reaction_updated"]
            let pairEvents = blockerSocket.events.filter {
                $0["channel_url"] as? String == pair && messageEvents.contains($0["type"] as? String ?? "")
                    && ($0["data"] as? [String: Any])?["message"] as? String != "before"
            }
            #expect(pairEvents.map { $0["type"] as? String } == ["message_received"], "\(pairEvents)")
            // A replay from the start leaves them out the same way.
            let replay = try await api.events(cast.tokens[blocker]!, after: 0)
            _ = try await replay.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "after" }
            let replayed = replay.events.filter {
                $0["channel_url"] as? String == pair && messageEvents.contains($0["type"] as? String ?? "")
            }
            #expect(
                replayed.map { ($0["data"] as? [String: Any])?["message"] as? String } == ["before", "after"], "\(replayed)")
            replay.close()
            // The sender is never told: no field says so, to them.
            let members = try await api.get("/v3/group_channels/\(pair)/members", as: senderSide)
            for member in members.rawJSON["members"] as? [[String: Any]] ?? [] {
                #expect(member["is_blocked_by_me"] as? Bool == false)
                #expect(member["is_blocking_me"] == nil)
            }
            for socket in [blockerSocket, senderSocket] { socket.close() }
        }
    }

    @Test func withAThirdMemberMessagesArriveMarkedBlocked() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("blockn", 3)
            let (sender, blocker, third) = (cast[0], cast[1], cast[2])
            // Once a channel has had a third member it is never 1-to-1 again, even back at two.
            let group = try await api.createChannel(["user_ids": [sender, blocker, third]])
            let once = try await api.createChannel(["user_ids": [sender, blocker, third]])
            #expect(try await api.put("/v3/group_channels/\(once)/leave", ["user_ids": [third]]).status == 200)
            #expect(try await api.post("/v3/users/\(blocker)/block", ["user_ids": [sender]], as: cast.session(1)).status == 200)
            let blockerSocket = try await api.events(cast.tokens[blocker]!)
            let thirdSocket = try await api.events(cast.tokens[third]!)

            _ = try await send(api, group, "to all", as: cast.session(0))
            let marked = try await blockerSocket.waitForEvent("message_received")
            let markedSender = (marked["data"] as? [String: Any])?["user"] as? [String: Any]
            #expect(markedSender?["is_blocked_by_me"] as? Bool == true, "\(marked)")
            let plain = try await thirdSocket.waitForEvent("message_received")
            #expect(((plain["data"] as? [String: Any])?["user"] as? [String: Any])?["is_blocked_by_me"] as? Bool == false)

            let history = try await api.get("/v3/group_channels/\(group)/messages?message_ts=\(Int64.max)", as: cast.session(1))
            let first = (history.rawJSON["messages"] as? [[String: Any]])?.first
            #expect((first?["user"] as? [String: Any])?["is_blocked_by_me"] as? Bool == true, "\(history.text)")
            let members = try await api.get("/v3/group_channels/\(group)/members", as: cast.session(1))
            let flags = Dictionary(
                uniqueKeysWithValues: (members.rawJSON["members"] as? [[String: Any]] ?? []).map {
                    ($0["user_id"] as? String ?? "", $0["is_blocked_by_me"] as? Bool)
                })
            #expect(flags == [sender: true, blocker: false, third: false], "\(members.text)")
            #expect(try await unread(api, blocker) == 1, "1-to-N messages count")

            _ = try await send(api, once, "two again", as: cast.session(0))
            #expect(try await texts(api, once, as: cast.session(1)) == ["two again"])
            // A replay marks them the same way.
            let replayed = try await api.events(cast.tokens[blocker]!, after: 0)
            let again = try await replayed.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "to all" }
            #expect(((again["data"] as? [String: Any])?["user"] as? [String: Any])?["is_blocked_by_me"] as? Bool == true)
            for socket in [blockerSocket, thirdSocket, replayed] { socket.close() }
        }
    }

    @Test func theBlockListAndWhoMayChangeIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("blocks", 5)
            let me = cast[0]
            let base = "/v3/users/\(me)/block"
            let added = try await api.post(
                base, ["target_id": cast[1], "user_ids": [cast[2], cast[1]], "users": [cast[3], ["user_id": cast[4]]]], as: cast.session(0))
            #expect(added.status == 200, "\(added.text)")
            #expect((added.rawJSON["users"] as? [[String: Any]])?.count == 4)
            #expect(try await api.post(base, ["target_id": cast[1]], as: cast.session(0)).status == 200, "again changes nothing")

            var seen: [String] = []
            var token = ""
            repeat {
                let page = try await api.get("\(base)?limit=3&token=\(token)", as: cast.session(0))
                #expect(page.status == 200, "\(page.text)")
                seen += (page.rawJSON["users"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? String }
                token = page.rawJSON["next"] as? String ?? ""
            } while !token.isEmpty
            #expect(seen == Array(cast.ids[1...4]).sorted())
            let among = try await api.get("\(base)?user_ids=\(cast[2]),nobody", as: cast.session(0))
            #expect((among.rawJSON["users"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String } == [cast[2]])

            // Refusals change nothing.
            let selfBlock = try await api.post(base, ["target_id": me], as: cast.session(0))
            #expect(selfBlock.status == 400)
            let unknown = try await api.post(base, ["user_ids": [cast[1], "nobody-\(UUID())"]], as: cast.session(0))
            #expect(unknown.status == 400)
            #expect(try unknown.code == 400201)
            #expect(try await api.post(base, [:], as: cast.session(0)).status == 400)
            #expect(try await api.post(base, ["target_id": 5], as: cast.session(0)).status == 400)
            #expect(try await api.post(base, ["target_id": cast[1]], as: .none).status == 401)
            #expect(try await api.post(base, ["target_id": cast[1]], as: cast.session(1)).status == 403)
            #expect(try await api.get(base, as: cast.session(1)).status == 403)
            #expect(try await api.delete("\(base)/\(cast[1])", as: cast.session(1)).status == 403)
            #expect(try await api.post("/v3/users/nobody-\(UUID())/block", ["target_id": cast[1]]).status == 404)
            #expect(try await api.get(base).rawJSON["users"] as? [[String: Any]] != nil, "the admin reads anyone's")

            #expect(try await api.delete("\(base)/\(cast[1])").status == 200)
            #expect(try await api.delete("\(base)/\(cast[1])", as: cast.session(0)).status == 404)
            let left = try await api.get(base, as: cast.session(0))
            #expect((left.rawJSON["users"] as? [[String: Any]])?.count == 3)
        }
    }
}
