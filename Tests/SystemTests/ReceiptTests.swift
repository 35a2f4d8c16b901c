import Foundation
import Testing

/// API.md §4.7: read and delivery receipts, exact unread message and mention counts.
@Suite struct ReceiptTests {
    private func send(_ api: API, _ url: String, _ body: [String: Any], as credential: Credential) async throws -> Int {
        let response = try await api.post("/v3/group_channels/\(url)/messages", body, as: credential)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(MessageBody.self).messageID
    }

    private func unread(_ api: API, _ url: String, _ users: [String]) async throws -> [String: Int] {
        let response = try await api.get("/v3/group_channels/\(url)/messages/unread_count?user_ids=\(users.joined(separator: ","))")
        return try response.decode(UnreadMapBody.self).unread
    }

    @Test func unreadCountsFollowSendsReadsDeletesAndResets() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("unread", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]]])
            var ids: [Int] = []
            for index in 0..<5 { ids.append(try await send(api, url, ["message": "a\(index)"], as: users.session(0))) }
            #expect(try await unread(api, url, users.ids) == [users[0]: 0, users[1]: 5, users[2]: 5])
            // Replying reads the channel for the sender.
            _ = try await send(api, url, ["message": "reply"], as: users.session(1))
            #expect(try await unread(api, url, users.ids) == [users[0]: 1, users[1]: 0, users[2]: 6])
            // Deleting an unread message lowers the count for those who had not read it.
            #expect(try await api.delete("/v3/group_channels/\(url)/messages/\(ids[4])").status == 200)
            #expect(try await unread(api, url, users.ids) == [users[0]: 1, users[1]: 0, users[2]: 5])
            // Reading up to a message's time leaves the later ones unread.
            let third = try await api.get("/v3/group_channels/\(url)/messages/\(ids[2])")
            let ts = try third.decode(MessageBody.self).createdAt
            #expect(
                try await api.put("/v3/group_channels/\(url)/messages/mark_as_read", ["timestamp": ts], as: users.session(2)).status == 200)
            #expect(try await unread(api, url, [users[2]]) == [users[2]: 2])
            let channel = try await api.get("/v3/group_channels/\(url)", as: users.session(2)).decode(ChannelBody.self)
            #expect(channel.unreadMessageCount == 2)
            #expect(channel.userLastRead == ts)
            #expect(try await api.put("/v3/group_channels/\(url)/reset_user_history", [:], as: users.session(2)).status == 200)
            #expect(try await unread(api, url, [users[2]]) == [users[2]: 0])
            #expect(try await api.put("/v3/group_channels/\(url)/messages/mark_as_read", [:], as: users.session(0)).status == 200)
            #expect(try await unread(api, url, [users[0]]) == [users[0]: 0])
        }
    }

    @Test func silentMessagesDoNotCount() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("silent", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            _ = try await send(api, url, ["message": "shh", "is_silent": true], as: users.session(0))
            _ = try await send(api, url, ["message": "loud"], as: users.session(0))
            #expect(try await unread(api, url, [users[1]]) == [users[1]: 1])
        }
    }

    @Test func mentionCountsAreExactAndClearedByReading() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("mention", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]]])
            _ = try await send(api, url, ["message": "hi @1", "mentioned_user_ids": [users[1]]], as: users.session(0))
            let removable = try await send(api, url, ["message": "hi @1 again", "mentioned_user_ids": [users[1]]], as: users.session(0))
            _ = try await send(api, url, ["message": "@channel", "mention_type": "channel"], as: users.session(0))
            func mentions(_ index: Int) async throws -> Int? {
                try await api.get("/v3/group_channels/\(url)", as: users.session(index)).decode(ChannelBody.self).unreadMentionCount
            }
            #expect(try await mentions(0) == 0)
            #expect(try await mentions(1) == 3)
            #expect(try await mentions(2) == 1)
            #expect(try await api.delete("/v3/group_channels/\(url)/messages/\(removable)").status == 200)
            #expect(try await mentions(1) == 2)
            #expect(try await api.put("/v3/group_channels/\(url)/messages/mark_as_read", [:], as: users.session(1)).status == 200)
            #expect(try await mentions(1) == 0)
        }
    }

    @Test func userTotalsCoverEveryChannelAndMarkAllReadClearsThem() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("totals", 2)
            var urls: [String] = []
            for index in 0..<3 {
                let url = try await api.createChannel(["user_ids": [users[0], users[1]], "custom_type": index == 0 ? "a" : "b"])
                for _ in 0...index { _ = try await send(api, url, ["message": "x"], as: users.session(0)) }
                urls.append(url)
            }
            let base = "/v3/users/\(users[1])"
            #expect(try await api.get("\(base)/unread_message_count", as: users.session(1)).decode(UnreadCountBody.self).unreadCount == 6)
            #expect(try await api.get("\(base)/unread_message_count?custom_types=b").decode(UnreadCountBody.self).unreadCount == 5)
            #expect(try await api.get("\(base)/unread_message_count?super_mode=super").decode(UnreadCountBody.self).unreadCount == 0)
            #expect(try await api.get("\(base)/unread_channel_count").decode(UnreadCountBody.self).unreadCount == 3)
            #expect(try await api.put("\(base)/mark_as_read_all", ["channel_urls": [urls[2]]], as: users.session(1)).status == 200)
            #expect(try await api.get("\(base)/unread_message_count").decode(UnreadCountBody.self).unreadCount == 3)
            #expect(try await api.put("\(base)/mark_as_read_all", [:]).status == 200)
            #expect(try await api.get("\(base)/unread_channel_count").decode(UnreadCountBody.self).unreadCount == 0)
            #expect(try await api.get("\(base)/unread_channel_count", as: users.session(0)).status == 403)
        }
    }

    @Test func supergroupCountsAreExactAndUncapped() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("superunread", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "is_super": true])
            for index in 0..<120 { _ = try await send(api, url, ["message": "m\(index)"], as: users.session(0)) }
            #expect(try await unread(api, url, [users[1]]) == [users[1]: 120])
        }
    }

    @Test func deliveryAndReadReceiptsAppearOnTheChannelAndMembers() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("delivered", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            _ = try await send(api, url, ["message": "x"], as: users.session(0))
            let delivered = try await api.put("/v3/group_channels/\(url)/messages/mark_as_delivered", [:], as: users.session(1))
            let ts = try delivered.decode(TimestampBody.self).ts
            let channel = try await api.get("/v3/group_channels/\(url)?show_read_receipt=true&show_delivery_receipt=true").decode(
                ChannelBody.self)
            #expect(channel.deliveryReceipt?[users[1]] == ts)
            #expect(channel.readReceipt?[users[0]] ?? 0 > 0)
            let members = try await api.get("/v3/group_channels/\(url)/members").decode(MemberList.self)
            let member = members.items.first { $0.userID == users[1] }
            #expect(member?.deliveredTS == ts)
            let other = try await api.cast("deliveredother", 1)
            #expect(try await api.put("/v3/group_channels/\(url)/messages/mark_as_delivered", ["user_id": other[0]]).status == 403)
            #expect(
                try await api.put("/v3/group_channels/\(url)/messages/mark_as_read", ["user_id": users[0]], as: users.session(1)).status
                    == 403)
            #expect(
                try await api.put("/v3/group_channels/\(url)/messages/mark_as_read", ["timestamp": "now"], as: users.session(1)).code
                    == 400101)
        }
    }
}

@Suite struct ChannelLastMessageTests {
    @Test func channelsShowTheirNewestVisibleMessageAndFilterByUnread() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("lastmsg", 2)
            let busy = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let quiet = try await api.createChannel(["user_ids": [users[0], users[1]]])
            for text in ["first", "second"] {
                #expect(try await api.post("/v3/group_channels/\(busy)/messages", ["message": text], as: users.session(0)).status == 201)
            }
            let channel = try await api.get("/v3/group_channels/\(busy)", as: users.session(1)).decode(ChannelBody.self)
            #expect(channel.lastMessage?.message == "second")
            let base = "/v3/users/\(users[1])/my_group_channels"
            let list = try await api.get(base, as: users.session(1))
            #expect(try list.channelURLs == [busy, quiet], "latest_last_message puts the busy channel first")
            #expect(try await api.get("\(base)?unread_filter=unread_message").channelURLs == [busy])
            #expect(try await api.get("\(base)?show_empty=false").channelURLs == [busy])
            #expect(try await api.get("\(base)?unread_filter=some").code == 400111)
            #expect(try await api.put("/v3/group_channels/\(busy)/reset_user_history", [:], as: users.session(1)).status == 200)
            let afterReset = try await api.get("/v3/group_channels/\(busy)", as: users.session(1))
            #expect(afterReset.rawJSON["last_message"] is NSNull, "there, and null")
            #expect(try await api.get("\(base)?unread_filter=unread_message").channelURLs.isEmpty)
            #expect(try await api.get("/v3/group_channels?unread_filter=unread_message").code == 400105)
        }
    }
}

@Suite struct SilentMentionTests {
    @Test func silentChannelMentionsCountForNobody() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("silentmention", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let sent = try await api.post(
                "/v3/group_channels/\(url)/messages", ["message": "@all", "mention_type": "channel", "is_silent": true],
                as: users.session(0))
            #expect(sent.status == 201)
            let channel = try await api.get("/v3/group_channels/\(url)", as: users.session(1)).decode(ChannelBody.self)
            #expect(channel.unreadMentionCount == 0)
            #expect(channel.unreadMessageCount == 0)
        }
    }
}
