import Foundation
import Testing

/// API.md §3.5–3.7: hiding, archiving, resetting history, the chat-history option.
@Suite struct ChannelPreferenceTests {
    @Test func hideArchiveAndUnhideChangeTheUsersListOnly() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("hide", 2)
            let hidden = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let archived = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let visible = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            #expect(try await api.put("/v3/group_channels/\(hidden)/hide", [:], as: users.session(0)).status == 200)
            #expect(
                try await api.put("/v3/group_channels/\(archived)/hide", ["allow_auto_unhide": false], as: users.session(0)).status == 200)
            let base = "/v3/users/\(users[0])/my_group_channels"
            #expect(Set(try await api.get(base, as: users.session(0)).channelURLs) == [visible])
            #expect(Set(try await api.get("\(base)?hidden_mode=hidden_only").channelURLs) == [hidden, archived])
            #expect(Set(try await api.get("\(base)?hidden_mode=hidden_allow_auto_unhide").channelURLs) == [hidden])
            #expect(Set(try await api.get("\(base)?hidden_mode=hidden_prevent_auto_unhide").channelURLs) == [archived])
            #expect(Set(try await api.get("\(base)?hidden_mode=all").channelURLs) == [hidden, archived, visible])
            let seen = try await api.get("/v3/group_channels/\(archived)", as: users.session(0)).decode(ChannelBody.self)
            #expect(seen.isHidden == true)
            #expect(seen.hiddenState == "hidden_prevent_auto_unhide")
            // The other member still sees all three.
            #expect(try await api.get("/v3/users/\(users[1])/my_group_channels").channelURLs.count == 3)
            #expect(try await api.delete("/v3/group_channels/\(archived)/hide?user_id=\(users[0])").status == 200)
            #expect(
                try await api.get("/v3/group_channels/\(archived)", as: users.session(0)).decode(ChannelBody.self).hiddenState == "unhidden"
            )
        }
    }

    @Test func hideAllAndUnhideAllCoverEveryChannel() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("hideall", 2)
            let first = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            _ = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            #expect(try await api.put("/v3/group_channels/\(first)/hide", ["should_hide_all": true], as: users.session(0)).status == 200)
            #expect(try await api.get("/v3/users/\(users[0])/my_group_channels").channelURLs.isEmpty)
            let unhide = try await api.send(
                .delete, "/v3/group_channels/\(first)/hide", json: ["should_unhide_all": true], as: users.session(0))
            #expect(unhide.status == 200)
            #expect(try await api.get("/v3/users/\(users[0])/my_group_channels").channelURLs.count == 2)
        }
    }

    @Test func onlyMembersChangeTheirOwnView() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("hideauth", 3)
            let url = try await api.createChannel(["user_ids": [users[1]], "is_public": true], as: users.session(0))
            #expect(try await api.put("/v3/group_channels/\(url)/hide", ["user_id": users[1]], as: users.session(0)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/hide", [:], as: users.session(2)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/reset_user_history", [:], as: users.session(2)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/hide", [:]).code == 400105)
            #expect(try await api.put("/v3/group_channels/\(url)/hide", ["user_id": users[1], "allow_auto_unhide": "no"]).code == 400104)
        }
    }

    @Test func resetHistorySetsTheUsersMessageOffset() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("reset", 2)
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let before = Int(Date().timeIntervalSince1970 * 1000)
            let reset = try await api.put("/v3/group_channels/\(url)/reset_user_history", [:], as: users.session(0))
            let offset = try reset.decode(MessageOffsetBody.self).tsMessageOffset
            #expect(offset >= before - 1000)
            #expect(try await api.get("/v3/group_channels/\(url)", as: users.session(0)).decode(ChannelBody.self).tsMessageOffset == offset)
            #expect(try await api.get("/v3/group_channels/\(url)", as: users.session(1)).decode(ChannelBody.self).tsMessageOffset == 0)
        }
    }

    @Test func withoutChatHistoryNewMembersStartAtTheirJoinTime() async throws {
        try await TestServer.withAPI({ $0.chatHistory = false }) { api in
            let users = try await api.cast("nohistory", 3)
            let url = try await api.createChannel(["user_ids": [users[1]], "is_public": true], as: users.session(0))
            let joined = try await api.put("/v3/group_channels/\(url)/join", [:], as: users.session(2)).decode(ChannelBody.self)
            let offset = try #require(joined.tsMessageOffset)
            #expect(offset > 0)
            #expect(offset == joined.joinedTS)
        }
    }
}

/// API.md §3.10: channel metadata, read by members and written by operators.
@Suite struct ChannelMetadataTests {
    @Test func operatorsWriteMembersReadOutsidersSeeNothing() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("chanmeta", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "operator_ids": [users[0]]])
            let base = "/v3/group_channels/\(url)/metadata"
            #expect(try await api.post(base, ["metadata": ["topic": "cats"]], as: users.session(0)).status == 201)
            #expect(try await api.post(base, ["metadata": ["topic": "dogs"]], as: users.session(0)).code == 400202)
            #expect(try await api.put(base, ["metadata": ["x": "y"]], as: users.session(1)).status == 403)
            #expect(try await api.get(base, as: users.session(1)).decode([String: String].self) == ["topic": "cats"])
            #expect(try await api.get("\(base)/topic", as: users.session(1)).decode([String: String].self) == ["topic": "cats"])
            #expect(try await api.get(base, as: users.session(2)).status == 404)
            #expect(try await api.put("\(base)/topic", ["value": "birds"]).status == 200)
            #expect(try await api.delete("\(base)/topic", as: users.session(1)).status == 403)
            #expect(try await api.delete("\(base)/topic", as: users.session(0)).status == 200)
            #expect(try await api.get("\(base)/topic").code == 400201)
            let many = Dictionary(uniqueKeysWithValues: (0...100).map { ("k\($0)", "v") })
            #expect(try await api.put(base, ["metadata": many]).code == 400203)
        }
    }
}

/// Users leaving the platform leave their channels with the counts kept right.
@Suite struct UserChannelLifecycleTests {
    @Test func deletingOrDeactivatingAUserUpdatesTheirChannels() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("lifecycle", 3)
            let url = try await api.createChannel(["user_ids": [users[1], users[2]], "is_distinct": true], as: users.session(0))
            #expect(try await api.delete("/v3/users/\(users[1])").status == 200)
            let after = try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self)
            #expect(after.memberCount == 2)
            #expect(after.isDistinct == false)
            #expect(try await api.put("/v3/users/\(users[2])", ["is_active": false, "leave_all_when_deactivated": true]).status == 200)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).memberCount == 1)
            #expect(try await api.put("/v3/users/\(users[0])", ["is_active": false, "leave_all_when_deactivated": false]).status == 200)
            #expect(try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).memberCount == 1)
        }
    }
}
