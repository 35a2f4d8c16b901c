import Foundation
import Testing

/// API.md §3.4: invitations, accept/decline, join, leave, members, operators, freeze.
@Suite struct MembershipTests {
    @Test func invitationsAreAcceptedOrDeclinedOnlyWhenPending() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("invite", 4)
            for index in [2, 3] {
                #expect(try await api.put("/v3/users/\(users[index])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            }
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let invited = try await api.post("/v3/group_channels/\(url)/invite", ["user_ids": [users[2], users[3]]], as: users.session(1))
            #expect(invited.status == 200)
            #expect(try invited.decode(ChannelBody.self).memberCount == 4)
            #expect(try invited.decode(ChannelBody.self).joinedMemberCount == 2)
            let accepted = try await api.put("/v3/group_channels/\(url)/accept", [:], as: users.session(2))
            #expect(try accepted.decode(ChannelBody.self).memberState == "joined")
            #expect(try await api.put("/v3/group_channels/\(url)/accept", [:], as: users.session(2)).code == 400111)
            #expect(try await api.put("/v3/group_channels/\(url)/decline", [:], as: users.session(2)).code == 400111)
            #expect(try await api.put("/v3/group_channels/\(url)/decline", ["user_id": users[3]], as: users.session(3)).status == 200)
            let after = try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self)
            #expect(after.memberCount == 3)
            #expect(after.joinedMemberCount == 3)
            let check = try await api.get("/v3/group_channels/\(url)/members/\(users[3])").decode(MemberCheckBody.self)
            #expect(check.isMember == false)
            #expect(check.state == "none")
            let otherUser = try await api.put("/v3/group_channels/\(url)/accept", ["user_id": users[2]], as: users.session(3))
            #expect(try otherUser.code == 400108)
        }
    }

    @Test func onlyMembersInviteAndTheLimitHolds() async throws {
        try await TestServer.withAPI({ $0.limits.groupChannelMembers = 3 }) { api in
            let users = try await api.cast("invitelimit", 5)
            let url = try await api.createChannel(["user_ids": [users[1]], "is_public": true], as: users.session(0))
            let outsider = try await api.post("/v3/group_channels/\(url)/invite", ["user_ids": [users[3]]], as: users.session(2))
            #expect(outsider.status == 403)
            let ghost = try await api.post("/v3/group_channels/\(url)/invite", ["user_ids": [uniqueID("ghost")]], as: users.session(0))
            #expect(try ghost.code == 400201)
            let over = try await api.post("/v3/group_channels/\(url)/invite", ["user_ids": [users[3], users[4]]], as: users.session(0))
            #expect(over.status == 409)
            #expect(try over.code == 400203)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).memberCount == 2)
            #expect(try await api.post("/v3/group_channels/\(url)/invite", [:], as: users.session(0)).code == 400105)
        }
    }

    @Test func joinIsForPublicChannelsWithTheRightAccessCode() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("join", 3)
            let open = try await api.createChannel(["user_ids": [], "is_public": true, "access_code": "sesame"], as: users.session(0))
            let closed = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            #expect(try await api.put("/v3/group_channels/\(open)/join", [:], as: users.session(1)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(open)/join", ["access_code": "wrong"], as: users.session(1)).code == 400108)
            let joined = try await api.put("/v3/group_channels/\(open)/join", ["access_code": "sesame"], as: users.session(1))
            #expect(joined.status == 200)
            #expect(try joined.decode(ChannelBody.self).memberState == "joined")
            #expect(try joined.decode(ChannelBody.self).joinedMemberCount == 2)
            #expect(try await api.put("/v3/group_channels/\(open)/join", ["user_id": users[2]]).status == 200, "the admin needs no code")
            #expect(try await api.put("/v3/group_channels/\(closed)/join", [:], as: users.session(2)).status == 404)
            #expect(try await api.put("/v3/group_channels/\(closed)/join", ["user_id": users[2]]).status == 403)
        }
    }

    @Test func leavingKeepsTheChannelAndUpdatesCounts() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("leave", 2)
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let other = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            #expect(try await api.put("/v3/group_channels/\(url)/leave", ["user_ids": [users[0]]], as: users.session(1)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/leave", [:], as: users.session(1)).status == 200)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).memberCount == 1)
            #expect(try await api.put("/v3/group_channels/\(url)/leave", ["should_leave_all": true], as: users.session(0)).status == 200)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).memberCount == 0)
            #expect(try await api.get("/v3/group_channels/\(other)").decode(ChannelBody.self).memberCount == 1)
            #expect(try await api.get("/v3/group_channels/\(url)", as: users.session(0)).status == 404)
        }
    }

    @Test func membersListFiltersOrdersAndPages() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("members", 6)
            #expect(try await api.put("/v3/users/\(users[5])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            for (index, nickname) in ["delta", "alpha", "echo", "bravo", "charlie", "foxtrot"].enumerated() {
                #expect(try await api.put("/v3/users/\(users[index])", ["nickname": nickname]).status == 200)
            }
            let url = try await api.createChannel(
                ["user_ids": Array(users.ids.dropFirst()), "operator_ids": [users[2]]], as: users.session(0))
            #expect(try await api.memberIDs(url) == [users[1], users[3], users[4], users[0], users[2], users[5]])
            #expect(
                try await api.memberIDs(url, "&order=operator_then_member_alphabetical") == [
                    users[2], users[1], users[3], users[4], users[0], users[5]
                ])
            #expect(try await api.memberIDs(url, "&operator_filter=operator") == [users[2]])
            #expect(try await api.memberIDs(url, "&member_state_filter=invited_only") == [users[5]])
            #expect(try await api.memberIDs(url, "&muted_member_filter=muted") == [])
            var seen: [String] = []
            var token = ""
            repeat {
                let page = try await api.get("/v3/group_channels/\(url)/members?limit=4&token=\(token)", as: users.session(1))
                let members = try page.decode(MemberList.self)
                seen += members.items.map(\.userID)
                token = members.next
            } while !token.isEmpty
            #expect(seen == [users[1], users[3], users[4], users[0], users[2], users[5]])
            #expect(try await api.get("/v3/group_channels/\(url)/members?operator_filter=x").code == 400111)
            #expect(try await api.get("/v3/group_channels/\(url)/members?token=bogus").code == 400109)
        }
    }

    @Test func operatorsManageOperatorsAndFreeze() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("operators", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "operator_ids": [users[0]]])
            let added = try await api.post("/v3/group_channels/\(url)/operators", ["operator_ids": [users[1]]], as: users.session(0))
            #expect(try added.decode(OperatorList.self).items.count == 2)
            #expect(try await api.post("/v3/group_channels/\(url)/operators", ["operator_ids": [users[2]]]).code == 400111)
            // Another operator's role is the admin's to take (issue 29.10); one's own may be given up.
            #expect(
                try await api.delete("/v3/group_channels/\(url)/operators?operator_ids=\(users[1])", as: users.session(0)).status == 403)
            #expect(
                try await api.delete("/v3/group_channels/\(url)/operators?operator_ids=\(users[1])", as: users.session(1)).status == 200)
            #expect(
                try await api.post("/v3/group_channels/\(url)/operators", ["operator_ids": [users[1]]], as: users.session(1)).status == 403)
            let frozen = try await api.put("/v3/group_channels/\(url)/freeze", ["freeze": true], as: users.session(0))
            #expect(try frozen.decode(ChannelBody.self).freeze == true)
            #expect(try await api.put("/v3/group_channels/\(url)/freeze", ["freeze": false], as: users.session(1)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/freeze", [:]).code == 400105)
            #expect(try await api.get("/v3/group_channels/\(url)/operators", as: users.session(2)).status == 404)
        }
    }
}
