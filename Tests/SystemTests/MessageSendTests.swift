import Foundation
import Testing

/// Sending (API.md §4.2): what a send returns and changes, who may send, invalid sends, retries and concurrent senders.
@Suite struct MessageSendTests: MessageFixtures {
    @Test func sendReturnsTheMessageAndUpdatesTheChannel() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("send", 2)
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let sent = try await api.post(
                "/v3/group_channels/\(url)/messages",
                [
                    "message": "hello", "custom_type": "greeting", "data": "d", "mentioned_user_ids": [users[1]],
                    "sorted_metaarray": [["key": "tags", "value": ["a", "b"]]]
                ], as: users.session(0))
            #expect(sent.status == 201)
            let message = try sent.decode(MessageBody.self)
            #expect(message.type == "MESG")
            #expect(message.message == "hello")
            #expect(message.customType == "greeting")
            #expect(message.user?.userID == users[0])
            #expect(message.mentionedUsers.first?.userID == users[1])
            #expect(message.sortedMetaarray.first?.value == ["a", "b"])
            #expect(message.updatedAt == 0)
            let admin = try await api.post("/v3/group_channels/\(url)/messages", ["message_type": "ADMM", "message": "notice"])
            #expect(admin.status == 201)
            #expect(admin.rawJSON["user"] == nil, "an admin message has no sender at all")
            let list = try await api.get("/v3/users/\(users[1])/my_group_channels?show_empty=false")
            #expect(try list.channelURLs == [url])
        }
    }

    @Test func onlyJoinedMembersSendAndAdminMessagesNeedTheApiToken() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("sendauth", 4)
            #expect(try await api.put("/v3/users/\(users[3])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let url = try await api.createChannel(["user_ids": [users[1], users[3]], "is_public": true], as: users.session(0))
            let path = "/v3/group_channels/\(url)/messages"
            #expect(try await api.post(path, ["message": "x"], as: users.session(2)).status == 403)
            #expect(try await api.post(path, ["message": "x"], as: users.session(3)).status == 403)
            #expect(try await api.post(path, ["message": "x", "user_id": users[1]], as: users.session(0)).status == 403)
            #expect(try await api.post(path, ["message_type": "ADMM", "message": "x"], as: users.session(0)).status == 403)
            #expect(try await api.post(path, ["message": "x"]).code == 400105, "the admin must name the sender")
            #expect(try await api.post(path, ["message": "x", "user_id": users[1]]).status == 201)
            let privateURL = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            #expect(try await api.post("/v3/group_channels/\(privateURL)/messages", ["message": "x"], as: users.session(2)).status == 404)
            #expect(
                try await api.post("/v3/group_channels/nope-\(uniqueID("x"))/messages", ["message": "x", "user_id": users[0]]).status == 404
            )
        }
    }

    @Test(
        arguments: [
            (["message": 5], 400100), ([:], 400105), (["message": String(repeating: "x", count: 5001)], 400110),
            (["message": "x", "message_type": "TEXT"], 400111), (["message": "x", "mention_type": "all"], 400111),
            (["message": "x", "dedup_id": String(repeating: "d", count: 65)], 400110), (["message": "x", "is_silent": 1], 400104),
            (
                ["message": "x", "sorted_metaarray": [["key": "k", "value": Array(repeating: "v", count: 51)] as [String: any Sendable]]],
                400203
            ),
            (["message_type": "ADMM", "message": String(repeating: "x", count: 1001)], 400110)
        ] as [([String: any Sendable], Int)])
    func invalidSendsAreRejectedAndStoreNothing(body: [String: any Sendable], code: Int) async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("badsend", 1)
            let url = try await api.createChannel(["user_ids": [users[0]]])
            var body = body
            if body["message_type"] as? String != "ADMM" { body["user_id"] = users[0] }
            let response = try await api.post("/v3/group_channels/\(url)/messages", body)
            #expect(try response.code == code, "\(response.text)")
            #expect(try await api.get("/v3/group_channels/\(url)/messages/total_count").decode(TotalCountBody.self).total == 0)
        }
    }

    @Test func tenConcurrentRetriesWithOneDedupIDMakeOneMessage() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("dedup", 1)
            let url = try await api.createChannel(["user_ids": [users[0]]])
            // On connections of their own (`API.burst`): one connection's requests run in turn.
            let results = try await api.burst(10) { client, _ in
                let response = try await client.post(
                    "/v3/group_channels/\(url)/messages", ["message": "once", "dedup_id": "abc"], as: users.session(0))
                return (response.status, try response.decode(MessageBody.self).messageID)
            }
            #expect(results.filter { $0.0 == 201 }.count == 1)
            #expect(results.filter { $0.0 == 200 }.count == 9)
            #expect(Set(results.map(\.1)).count == 1)
            #expect(try await api.get("/v3/group_channels/\(url)/messages/total_count").decode(TotalCountBody.self).total == 1)
            let other = try await api.post(
                "/v3/group_channels/\(url)/messages", ["message": "twice", "dedup_id": "abd"], as: users.session(0))
            #expect(other.status == 201)
        }
    }

    @Test func threeMembersSendingConcurrentlyLoseNothing() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("concurrent", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]]])
            _ = try await api.burst(3) { client, sender in
                try await self.sendMany(client, url, 20, as: users.session(sender), prefix: "u\(sender)-")
            }
            let history = try await api.get("/v3/group_channels/\(url)/messages?prev_limit=200&next_limit=0")
            let messages = try history.decode(MessageList.self).messages
            #expect(messages.count == 60)
            let ids = messages.map(\.messageID)
            let times = messages.map(\.createdAt)
            #expect(ids == ids.sorted())
            #expect(times == times.sorted())
            for sender in 0..<3 {
                let own = messages.map(\.message).filter { $0.hasPrefix("u\(sender)-") }
                #expect(own == (0..<20).map { "u\(sender)-\($0)" })
            }
        }
    }

    @Test func frozenChannelsLetOnlyOperatorsAndAdminSend() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("frozen", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "operator_ids": [users[0]]])
            #expect(try await api.put("/v3/group_channels/\(url)/freeze", ["freeze": true]).status == 200)
            let path = "/v3/group_channels/\(url)/messages"
            let blocked = try await api.post(path, ["message": "x"], as: users.session(1))
            #expect(blocked.status == 403)
            #expect(try blocked.code == 900050)
            #expect(try await api.post(path, ["message": "x"], as: users.session(0)).status == 201)
            #expect(try await api.post(path, ["message": "x", "user_id": users[1]]).status == 201)
        }
    }

    @Test func aNewMessageUnhidesButDoesNotUnarchive() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("unhide", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1], users[2]]])
            #expect(try await api.put("/v3/group_channels/\(url)/hide", [:], as: users.session(1)).status == 200)
            #expect(try await api.put("/v3/group_channels/\(url)/hide", ["allow_auto_unhide": false], as: users.session(2)).status == 200)
            _ = try await sendMany(api, url, 1, as: users.session(0))
            #expect(try await api.get("/v3/group_channels/\(url)", as: users.session(1)).decode(ChannelBody.self).hiddenState == "unhidden")
            #expect(
                try await api.get("/v3/group_channels/\(url)", as: users.session(2)).decode(ChannelBody.self).hiddenState
                    == "hidden_prevent_auto_unhide")
        }
    }
}
