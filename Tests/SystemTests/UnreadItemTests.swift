import Foundation
import Testing

/// Issue 52.1: Sendbird's user counts (`unread_item_count`, `group_channel_count`), the count
/// preference that decides what the totals count, and leaving every joined channel.
@Suite struct UnreadItemTests {
    /// A reader in a channel of custom type `team` (two messages, one mentioning them), a
    /// supergroup (three messages), and invited to a third channel.
    static func scene(_ api: API) async throws -> (cast: Cast, team: String, group: String, invited: String) {
        let cast = try await api.cast("unreaditems", 2)
        let (reader, sender) = (cast[0], cast[1])
        let team = try await api.createChannel(["user_ids": cast.ids, "custom_type": "team"])
        let group = try await api.createChannel(["user_ids": cast.ids, "is_super": true])
        // From here on the reader is invited rather than joined.
        #expect(try await api.put("/v3/users/\(reader)/channel_invitation_preference", ["auto_accept": false]).status == 200)
        let invited = try await api.createChannel(["user_ids": [sender]])
        #expect(try await api.post("/v3/group_channels/\(invited)/invite", ["user_ids": [reader]]).status == 200)
        for (channel, count) in [(team, 2), (group, 3)] {
            for index in 0..<count {
                var body: [String: Any] = ["message": "m\(index)"]
                if channel == team && index == 0 { body.merge(["mentioned_user_ids": [reader], "mention_type": "users"]) { $1 } }
                let sent = try await api.post("/v3/group_channels/\(channel)/messages", body, as: cast.session(1))
                #expect(sent.status == 201 || sent.status == 200, "\(sent.text)")
            }
        }
        return (cast, team, group, invited)
    }

    static func items(_ api: API, _ userID: String, _ query: String = "", as credential: Credential) async throws -> [String: Int] {
        let answer = try await api.get("/v3/users/\(userID)/unread_item_count\(query)", as: credential)
        #expect(answer.status == 200, "\(answer.text)")
        return answer.rawJSON.compactMapValues { $0 as? Int }
    }

    @Test func unreadItemsFollowTheCountPreference() async throws {
        try await TestServer.withAPI { api in
            let (cast, team, group, _) = try await Self.scene(api)
            let (reader, me) = (cast[0], cast.session(0))
            #expect(
                try await Self.items(api, reader, as: me) == [
                    "group_channel_unread_message_count": 5, "super_group_channel_unread_message_count": 3,
                    "non_super_group_channel_unread_message_count": 2, "group_channel_unread_mention_count": 1,
                    "super_group_channel_unread_mention_count": 0, "non_super_group_channel_unread_mention_count": 1,
                    "group_channel_invitation_count": 1, "super_group_channel_invitation_count": 0,
                    "non_super_group_channel_invitation_count": 1
                ])
            #expect(
                try await Self.items(api, reader, "?item_keys=group_channel_unread_message_count,group_channel_invitation_count", as: me)
                    == ["group_channel_unread_message_count": 5, "group_channel_invitation_count": 1])
            #expect(try await Self.items(api, reader, "?custom_type=team", as: me)["group_channel_unread_message_count"] == 2)
            #expect(try await api.get("/v3/users/\(reader)/unread_item_count?item_keys=unread", as: me).code == 400111)
            #expect(try await api.get("/v3/users/\(reader)/unread_item_count", as: cast.session(1)).status == 403)

            // The team channel counts only its mentions into the totals; its own counts stay.
            let preference = "/v3/users/\(reader)/count_preference/\(team)"
            #expect(try await api.get(preference, as: me).rawJSON["count_preference"] as? String == "all")
            let set = try await api.put(preference, ["count_preference": "unread_mentioned_count_only"], as: me)
            #expect(set.status == 200 && set.rawJSON["count_preference"] as? String == "unread_mentioned_count_only", "\(set.text)")
            #expect(try await api.get(preference).rawJSON["count_preference"] as? String == "unread_mentioned_count_only")
            var items = try await Self.items(api, reader, as: me)
            #expect(items["group_channel_unread_message_count"] == 3 && items["group_channel_unread_mention_count"] == 1)
            #expect(try await api.get("/v3/users/\(reader)/unread_message_count", as: me).rawJSON["unread_count"] as? Int == 3)
            let view = try await api.get("/v3/group_channels/\(team)", as: me).rawJSON
            #expect(view["unread_message_count"] as? Int == 2 && view["count_preference"] as? String == "unread_mentioned_count_only")

            // The supergroup counts nothing; the team channel only messages.
            #expect(try await api.put("/v3/users/\(reader)/count_preference/\(group)", ["count_preference": "off"], as: me).status == 200)
            #expect(try await api.put(preference, ["count_preference": "unread_message_count_only"], as: me).status == 200)
            items = try await Self.items(api, reader, as: me)
            #expect(items["group_channel_unread_message_count"] == 2 && items["group_channel_unread_mention_count"] == 0)

            #expect(try await api.put(preference, ["count_preference": "some"], as: me).code == 400111)
            #expect(try await api.put(preference, [:], as: me).status == 400)
            #expect(try await api.get(preference, as: cast.session(1)).status == 403)
            let outside = try await api.createChannel(["user_ids": [cast[1]]])
            #expect(try await api.get("/v3/users/\(reader)/count_preference/\(outside)", as: me).status == 404)
            #expect(try await api.put("/v3/users/\(reader)/count_preference/\(outside)", ["count_preference": "off"], as: me).status == 404)
        }
    }

    @Test func theEventStreamsTotalFollowsTheCountPreference() async throws {
        try await TestServer.withAPI { api in
            let (cast, team, _, _) = try await Self.scene(api)
            let set = try await api.put("/v3/users/\(cast[0])/count_preference/\(team)", ["count_preference": "off"], as: cast.session(0))
            #expect(set.status == 200)
            let reader = try await api.events(cast.tokens[cast[0]]!)
            _ = try await reader.hello()
            #expect(try await api.post("/v3/group_channels/\(team)/messages", ["message": "apart"], as: cast.session(1)).status == 201)
            // The team channel's own count moves to 3; the total is the supergroup's 3 alone.
            let frame = try await reader.waitFor { frame in
                let data = frame["data"] as? [String: Any]
                return frame["type"] as? String == "unread_count_changed" && data?["channel_url"] as? String == team
                    && data?["unread_message_count"] as? Int == 3
            }
            #expect((frame["data"] as? [String: Any])?["total_unread_message_count"] as? Int == 3)
            reader.close()
        }
    }

    @Test func channelCountsByJoinState() async throws {
        try await TestServer.withAPI { api in
            let (cast, _, _, _) = try await Self.scene(api)
            let path = "/v3/users/\(cast[0])/group_channel_count"
            for (state, count) in [("", 3), ("?state=all", 3), ("?state=joined", 2), ("?state=invited_only", 1)] {
                #expect(try await api.get(path + state, as: cast.session(0)).rawJSON["group_channel_count"] as? Int == count, "\(state)")
            }
            #expect(try await api.get(path + "?state=friends", as: cast.session(0)).code == 400111)
            #expect(try await api.get(path, as: cast.session(1)).status == 403)
        }
    }

    @Test func aUserLeavesTheirJoinedChannelsOfATypeOrAll() async throws {
        try await TestServer.withAPI { api in
            let (cast, team, group, invited) = try await Self.scene(api)
            let leave = "/v3/users/\(cast[0])/my_group_channels/leave"
            #expect(try await api.put(leave, ["custom_type": "team"], as: cast.session(1)).status == 403)
            #expect(try await api.put(leave, ["custom_type": "team"], as: cast.session(0)).status == 200)
            #expect(try await api.memberIDs(team) == [cast[1]])
            #expect(try await api.memberIDs(group).contains(cast[0]))
            #expect(try await api.put(leave, [:], as: cast.session(0)).status == 200)
            #expect(!(try await api.memberIDs(group).contains(cast[0])))
            // An invitation is not a joined channel: it stays.
            #expect(try await api.memberIDs(invited).contains(cast[0]))
        }
    }
}
