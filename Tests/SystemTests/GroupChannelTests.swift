import Foundation
import Testing

/// API.md §3.2–3.3: creating, reading, updating and deleting group channels.
@Suite struct GroupChannelTests {
    @Test func sessionUserCreatesAChannelAndInviteesFollowTheirPreference() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("create", 3)
            #expect(try await api.put("/v3/users/\(users[2])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let response = try await api.post(
                "/v3/group_channels",
                [
                    "user_ids": [users[1], users[2]], "name": "Trip", "cover_url": "https://c/x.png", "custom_type": "travel",
                    "data": "{\"k\":1}", "is_ephemeral": true
                ], as: users.session(0))
            #expect(response.status == 201)
            let channel = try response.decode(ChannelBody.self)
            #expect(channel.name == "Trip")
            #expect(channel.customType == "travel")
            #expect(channel.data == "{\"k\":1}")
            #expect(channel.isEphemeral == true)
            #expect(channel.isDistinct == false)
            #expect(channel.memberCount == 3)
            #expect(channel.joinedMemberCount == 2)
            #expect(channel.memberState == "joined")
            #expect(channel.createdBy?.userID == users[0])
            #expect(channel.channelURL.hasPrefix("group_"))
            let invited = try await api.get("/v3/group_channels/\(channel.channelURL)", as: users.session(2)).decode(ChannelBody.self)
            #expect(invited.memberState == "invited")
            #expect(invited.inviter?.userID == users[0])
            #expect(invited.invitedAt ?? 0 > 0)
        }
    }

    @Test func adminCreatesWithOperatorsCustomURLAndNewUsers() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("admincreate", 2)
            let newUser = uniqueID("brandnew")
            let url = uniqueID("custom.url")
            let created = try await api.post(
                "/v3/group_channels",
                [
                    "channel_url": url, "user_ids": [users[0]], "users": [["user_id": newUser, "nickname": "Newbie"]],
                    "operator_ids": [users[1]], "access_code": "sesame", "is_public": true
                ])
            #expect(created.status == 201, "\(created.text)")
            let channel = try created.decode(ChannelBody.self)
            #expect(channel.channelURL == url)
            #expect(channel.memberCount == 3)
            #expect(channel.isAccessCodeRequired == true)
            #expect(channel.operators.map(\.userID) == [users[1]])
            #expect(created.rawJSON["member_state"] == nil, "the admin has no per-user fields without user_id")
            #expect(try await api.get("/v3/users/\(newUser)").decode(UserBody.self).nickname == "Newbie")
            let again = try await api.post("/v3/group_channels", ["channel_url": url, "user_ids": [users[0]]])
            #expect(again.status == 409)
            #expect(try again.code == 400202)
        }
    }

    @Test(
        arguments: [
            (["is_super": true, "is_distinct": true], 400, 400111),
            (["is_public": true, "is_distinct": true], 400, 400111),
            (["channel_url": "bad url!"], 400, 400111),
            (["channel_url": String(repeating: "a", count: 101)], 400, 400110),
            (["user_ids": "a"], 400, 400102),
            (["user_ids": [1]], 400, 400100),
            (["is_public": "yes"], 400, 400104),
            (["data": String(repeating: "d", count: 65_536)], 400, 400110),
            (["name": String(repeating: "n", count: 192)], 400, 400110),
            (["users": ["x"]], 400, 400103)
        ] as [([String: any Sendable], Int, Int)])
    func invalidCreateIsRejected(body: [String: any Sendable], status: Int, code: Int) async throws {
        try await TestServer.withAPI { api in
            let response = try await api.post("/v3/group_channels", body)
            #expect(response.status == status)
            #expect(try response.code == code, "\(response.text)")
        }
    }

    @Test func unknownUsersAndTooManyMembersAreRefusedAndCreateNothing() async throws {
        try await TestServer.withAPI({ $0.limits.groupChannelMembers = 3 }) { api in
            let users = try await api.cast("limits", 4)
            let ghost = uniqueID("ghost")
            let unknown = try await api.post("/v3/group_channels", ["user_ids": [users[1], ghost]], as: users.session(0))
            #expect(unknown.status == 400)
            #expect(try unknown.code == 400201)
            #expect(unknown.text.contains(ghost))
            let tooMany = try await api.post("/v3/group_channels", ["user_ids": [users[1], users[2], users[3]]], as: users.session(0))
            #expect(tooMany.status == 409)
            #expect(try tooMany.code == 400203)
            let mine = try await api.get("/v3/users/\(users[0])/my_group_channels", as: users.session(0))
            #expect(try mine.channelURLs.isEmpty)
        }
    }

    @Test func sessionUserCannotCreateInSomeoneElsesName() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("impostor", 2)
            let response = try await api.post("/v3/group_channels", ["user_ids": [users[1]], "inviter_id": users[1]], as: users.session(0))
            #expect(response.status == 403)
            #expect(try response.code == 400108)
        }
    }

    @Test func privateChannelsAreInvisibleToOutsiders() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("visibility", 3)
            let privateURL = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let publicURL = try await api.createChannel(["user_ids": [users[1]], "is_public": true], as: users.session(0))
            let hidden = try await api.get("/v3/group_channels/\(privateURL)", as: users.session(2))
            #expect(hidden.status == 404)
            #expect(try hidden.code == 400201)
            let open = try await api.get("/v3/group_channels/\(publicURL)", as: users.session(2))
            #expect(open.status == 200)
            #expect(try open.decode(ChannelBody.self).memberState == "none")
            let asOther = try await api.get("/v3/group_channels/\(publicURL)?user_id=\(users[0])", as: users.session(2))
            #expect(asOther.status == 403)
            let adminAsUser = try await api.get("/v3/group_channels/\(privateURL)?user_id=\(users[1])&show_member=true")
            #expect(try adminAsUser.decode(ChannelBody.self).memberState == "joined")
            #expect(try adminAsUser.decode(ChannelBody.self).members?.count == 2)
            let listed = try await api.get("/v3/group_channels?channel_urls=\(privateURL),\(publicURL)", as: users.session(2))
            #expect(try listed.channelURLs == [publicURL])
        }
    }

    @Test func onlyOperatorsAndAdminUpdateAndDelete() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("manage", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "operator_ids": [users[0]]])
            let byOperator = try await api.put("/v3/group_channels/\(url)", ["name": "Renamed", "data": "x"], as: users.session(0))
            #expect(byOperator.status == 200)
            #expect(try byOperator.decode(ChannelBody.self).name == "Renamed")
            #expect(try byOperator.decode(ChannelBody.self).myRole == "operator")
            let byMember = try await api.put("/v3/group_channels/\(url)", ["name": "Nope"], as: users.session(1))
            #expect(byMember.status == 403)
            let byOutsider = try await api.put("/v3/group_channels/\(url)", ["name": "Nope"], as: users.session(2))
            #expect(byOutsider.status == 404)
            let distinctPublic = try await api.put("/v3/group_channels/\(url)", ["is_public": true, "is_distinct": true])
            #expect(try distinctPublic.code == 400111)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).name == "Renamed")
            #expect(try await api.delete("/v3/group_channels/\(url)", as: users.session(1)).status == 403)
            #expect(try await api.delete("/v3/group_channels/\(url)", as: users.session(0)).status == 200)
            #expect(try await api.get("/v3/group_channels/\(url)").status == 404)
            #expect(try await api.delete("/v3/group_channels/\(url)").status == 404)
        }
    }
}

@Suite struct ChannelReceiptFieldTests {
    @Test func receiptsListTheJoinedMembersWhenAsked() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("receipts", 3)
            #expect(try await api.put("/v3/users/\(users[2])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let url = try await api.createChannel(["user_ids": [users[1], users[2]]], as: users.session(0))
            let plain = try await api.get("/v3/group_channels/\(url)", as: users.session(1))
            #expect(plain.rawJSON["read_receipt"] == nil, "absent unless asked for")
            let asked = try await api.get(
                "/v3/group_channels/\(url)?show_read_receipt=true&show_delivery_receipt=true", as: users.session(1))
            let channel = try asked.decode(ChannelBody.self)
            #expect(channel.readReceipt.map { Set($0.keys) } == [users[0], users[1]])
            #expect(channel.deliveryReceipt.map { Set($0.keys) } == [users[0], users[1]])
            #expect(asked.rawJSON["members"] == nil, "absent unless asked for")
            #expect(try await api.get("/v3/group_channels/\(url)?show_read_receipt=maybe").code == 400104)
        }
    }
}
