import Foundation
import Postgres
import Synchronization
import Testing

/// Issue 10.8, 10.9, 10.11 and 10.17: what a channel shows and to whom, operators' invitations,
/// meta-array locks, and the size of an embedded member list.
@Suite struct ChannelRuleTests {
    @Test func lastMessageIsWhatTheViewerMayRead() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("lastmsg", 3)
            #expect(try await api.put("/v3/users/\(users[2])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let url = try await api.createChannel(["user_ids": [users[2]], "is_public": true], as: users.session(0))
            #expect(try await api.post("/v3/group_channels/\(url)/messages", ["message": "secret"], as: users.session(0)).status == 201)
            func lastMessage(_ path: String, as credential: Credential) async throws -> String? {
                let channel = try await api.get(path, as: credential)
                #expect(channel.status == 200, "\(channel.text)")
                return try channel.decode(ChannelBody.self).lastMessage?.message
            }
            let channelPath = "/v3/group_channels/\(url)"
            #expect(try await lastMessage(channelPath, as: users.session(0)) == "secret")
            #expect(try await lastMessage(channelPath, as: .admin) == "secret")
            #expect(try await lastMessage(channelPath, as: users.session(1)) == nil, "a non-member cannot read the history")
            #expect(try await lastMessage(channelPath, as: users.session(2)) == nil, "nor can an invited user")
            #expect(try await lastMessage("\(channelPath)?user_id=\(users[1])", as: .admin) == nil)
            #expect(try await api.get("\(channelPath)/messages", as: users.session(1)).status == 403)
            let list = try await api.get("/v3/group_channels?channel_urls=\(url)", as: users.session(1))
            let listed = try #require((list.rawJSON["channels"] as? [[String: Any]])?.first)
            #expect(listed["last_message"] is NSNull, "there, and null")
        }
    }

    @Test func operatorsNamedAtCreationFollowTheirAutoAccept() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("opinvite", 3)
            #expect(try await api.put("/v3/users/\(users[1])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let url = try await api.createChannel(["user_ids": [users[2]], "operator_ids": [users[1], users[2]]], as: users.session(0))
            let member = try await api.get("/v3/group_channels/\(url)/members/\(users[1])")
            #expect(try member.decode(MemberCheckBody.self).state == "invited")
            #expect(try await api.get("/v3/group_channels/\(url)/members/\(users[2])").decode(MemberCheckBody.self).state == "joined")
            let operators = try await api.get("/v3/group_channels/\(url)/operators")
            #expect(try operators.decode(OperatorList.self).items.count == 2, "both are operators")
            #expect(
                try await api.put("/v3/group_channels/\(url)/freeze", ["freeze": true], as: users.session(1)).status == 403,
                "an invited operator does not manage the channel until they accept")
        }
    }

    @Test func metaArrayRequestsCheckAccessBeforeTakingALock() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("lockfirst", 2)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let sent = try await api.post("/v3/group_channels/\(url)/messages", ["message": "m"], as: users.session(0))
            let messageID = try sent.decode(MessageBody.self).messageID
            let outsiderURL = try await api.createChannel(["user_ids": []], as: users.session(1))
            // Another transaction holds the message's row.
            let holder = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            try holder.execute("BEGIN")
            try holder.query("SELECT 1 FROM messages WHERE message_id = $1 FOR UPDATE", [messageID])
            let answered = Mutex<Int?>(nil)
            let request = Task {
                // The outsider names the message under their own channel and under the real one.
                let own = try await api.post(
                    "/v3/group_channels/\(outsiderURL)/messages/\(messageID)/sorted_metaarray",
                    ["sorted_metaarray": [["key": "k", "value": ["v"]]]], as: users.session(1))
                let real = try await api.post(
                    "/v3/group_channels/\(url)/messages/\(messageID)/sorted_metaarray",
                    ["sorted_metaarray": [["key": "k", "value": ["v"]]]], as: users.session(1))
                answered.withLock { $0 = own.status * 1000 + real.status }
            }
            // Both answers must come while the row is still locked: wait for them, not for a lock.
            try await eventually { answered.withLock { $0 } != nil }
            let whileLocked = answered.withLock { $0 }
            try holder.execute("ROLLBACK")
            _ = try await request.value
            #expect(whileLocked == 404_404, "refused at once, without waiting for the lock")
        }
    }

    @Test func anEmbeddedMemberListHoldsAtMostAHundred() async throws {
        try await TestServer.withAPI { api in
            let prefix = uniqueID("big")
            let members = (0..<150).map { ["user_id": "\(prefix)-\($0)"] }
            let created = try await api.post("/v3/group_channels", ["users": members, "is_super": true])
            #expect(created.status == 201, "\(created.text)")
            let url = try created.decode(ChannelBody.self).channelURL
            let channel = try await api.get("/v3/group_channels/\(url)?show_member=true&show_read_receipt=true").decode(ChannelBody.self)
            #expect(channel.memberCount == 150)
            #expect(channel.members?.count == 100)
            #expect(channel.readReceipt?.count == 100)
            let page = try await api.get("/v3/group_channels/\(url)/members?limit=100").decode(MemberList.self)
            #expect(page.next != "", "the members list pages through the rest")
        }
    }
}
