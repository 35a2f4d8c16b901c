import Foundation
import Testing

/// Bans and mutes by channel custom type (API.md §14.7): they hold in every channel of the type,
/// group or open, present and future, beside the channels' own; a ban takes the user out now.
@Suite struct CustomTypeModerationTests {
    static let base = "/v3/applications/settings_by_channel_custom_type"

    @Test func aBanHoldsInEveryChannelOfTheTypeAndEndsWhenLifted() async throws {
        try await TestServer.withAPI { api in
            let type = "support-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("ctb", 3)
            let (owner, banned) = (cast[0], cast[1])
            let group = try await api.createChannel(["user_ids": [owner, banned], "custom_type": type, "is_public": true])
            let other = try await api.createChannel(["user_ids": [owner, banned], "custom_type": "elsewhere"])
            let open =
                try await api.post("/v3/open_channels", ["name": "Help", "custom_type": type]).rawJSON["channel_url"] as? String ?? ""
            #expect(try await api.put("/v3/open_channels/\(open)/enter", [:], as: cast.session(1)).status == 200)

            let ban = try await api.post("\(Self.base)/\(type)/ban", ["banned_list": [["user_id": banned, "description": "spam"]]])
            #expect(ban.status == 200, "\(ban.text)")
            // Out of the type's channels now, still in the others.
            let members = try await api.get("/v3/group_channels/\(group)/members").rawJSON["members"] as? [[String: Any]]
            #expect(members?.compactMap { $0["user_id"] as? String } == [owner])
            let otherMembers = try await api.get("/v3/group_channels/\(other)/members").rawJSON["members"] as? [[String: Any]]
            #expect(otherMembers?.count == 2)
            let participants = try await api.get("/v3/open_channels/\(open)/participants").rawJSON["participants"] as? [[String: Any]]
            #expect(participants?.isEmpty == true)
            // And kept out of them: join, invite, enter, a new channel of the type.
            let join = try await api.put("/v3/group_channels/\(group)/join", [:], as: cast.session(1))
            #expect(join.status == 403)
            #expect(try join.code == 400750)
            #expect(try await api.post("/v3/group_channels/\(group)/invite", ["user_ids": [banned]]).status == 403)
            #expect(try await api.put("/v3/open_channels/\(open)/enter", [:], as: cast.session(1)).status == 403)
            #expect(try await api.post("/v3/group_channels", ["user_ids": [owner, banned], "custom_type": type]).status == 403)
            // A third user is not concerned.
            #expect(try await api.put("/v3/group_channels/\(group)/join", [:], as: cast.session(2)).status == 200)

            let listed = try await api.get("\(Self.base)/\(type)/ban").rawJSON["banned_list"] as? [[String: Any]]
            #expect(listed?.count == 1)
            #expect((listed?.first?["user"] as? [String: Any])?["user_id"] as? String == banned)
            #expect(listed?.first?["description"] as? String == "spam")
            #expect(listed?.first?["end_at"] as? Int == -1)

            #expect(try await api.delete("\(Self.base)/\(type)/ban?user_ids=\(banned)").status == 200)
            #expect(try await api.put("/v3/group_channels/\(group)/join", [:], as: cast.session(1)).status == 200)
            #expect(try await api.delete("\(Self.base)/\(type)/ban?user_ids=\(banned)").status == 404)
            #expect((try await api.get("\(Self.base)/\(type)/ban").rawJSON["banned_list"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func aMuteSilencesTheTypesChannelsOnly() async throws {
        try await TestServer.withAPI { api in
            let type = "quiet-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("ctm", 2)
            let group = try await api.createChannel(["user_ids": [cast[0], cast[1]], "custom_type": type])
            let other = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let mute = try await api.post("\(Self.base)/\(type)/mute", ["user_ids": [cast[1]], "seconds": 600, "description": "calm down"])
            #expect(mute.status == 200, "\(mute.text)")
            let refused = try await api.post("/v3/group_channels/\(group)/messages", ["message": "hi"], as: cast.session(1))
            #expect(refused.status == 403)
            #expect(try refused.code == 900041)
            #expect(try await api.post("/v3/group_channels/\(other)/messages", ["message": "hi"], as: cast.session(1)).status == 201)
            let members = try await api.get("/v3/group_channels/\(group)/members").rawJSON["members"] as? [[String: Any]]
            #expect(members?.first { $0["user_id"] as? String == cast[1] }?["is_muted"] as? Bool == true)
            let listed = try await api.get("\(Self.base)/\(type)/mute").rawJSON["muted_list"] as? [[String: Any]]
            #expect((listed?.first?["user"] as? [String: Any])?["user_id"] as? String == cast[1])
            #expect((listed?.first?["end_at"] as? Int ?? 0) > Int(Date.now.timeIntervalSince1970 * 1000))
            #expect(try await api.delete("\(Self.base)/\(type)/mute?user_ids=\(cast[1])").status == 200)
            #expect(try await api.post("/v3/group_channels/\(group)/messages", ["message": "hi"], as: cast.session(1)).status == 201)
        }
    }

    /// `POST /v3/users/{user_id}/banned_channel_custom_types|muted_channel_custom_types`: until lifted, for several types at once.
    @Test func aUserIsBannedOrMutedForSeveralTypesAtOnce() async throws {
        try await TestServer.withAPI { api in
            let suffix = UUID().uuidString.prefix(6)
            let cast = try await api.cast("ctu", 1)
            let types = ["a-\(suffix)", "b-\(suffix)"]
            #expect(try await api.post("/v3/users/\(cast[0])/banned_channel_custom_types", ["channel_custom_types": types]).status == 200)
            #expect(
                try await api.post("/v3/users/\(cast[0])/muted_channel_custom_types", ["channel_custom_types": [types[0]]]).status == 200)
            for type in types {
                let bans = try await api.get("\(Self.base)/\(type)/ban").rawJSON["banned_list"] as? [[String: Any]]
                #expect(bans?.count == 1)
            }
            #expect((try await api.get("\(Self.base)/\(types[0])/mute").rawJSON["muted_list"] as? [[String: Any]])?.count == 1)
            #expect((try await api.get("\(Self.base)/\(types[1])/mute").rawJSON["muted_list"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func badRequestsChangeNothing() async throws {
        try await TestServer.withAPI { api in
            let type = "bad-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("ctx", 1)
            let cases: [([String: Any], Int)] = [
                ([String: Any](), 400105), (["banned_list": [[String: Any]]()], 400105),
                (["banned_list": [["user_id": "ghost-\(type)"]]], 400201),
                (["banned_list": [["user_id": cast[0], "seconds": 0]]], 400111), (["banned_list": [["user_id": 5]]], 400100)
            ]
            for (body, code) in cases {
                let answer = try await api.post("\(Self.base)/\(type)/ban", body)
                #expect(answer.status == 400, "\(body): \(answer.text)")
                #expect((try? answer.code) == code, "\(body): \(answer.text)")
            }
            #expect(
                try await api.post("\(Self.base)/\(type)/ban", ["banned_list": [["user_id": cast[0]]]], as: cast.session(0)).status == 403)
            #expect(try await api.get("\(Self.base)/\(type)/ban", as: cast.session(0)).status == 403)
            #expect(try await api.post("\(Self.base)/\(String(repeating: "x", count: 129))/mute", ["user_ids": [cast[0]]]).status == 400)
            #expect(try await api.post("/v3/users/\(cast[0])/banned_channel_custom_types", ["channel_custom_types": []]).status == 400)
            #expect((try await api.get("\(Self.base)/\(type)/ban").rawJSON["banned_list"] as? [[String: Any]])?.isEmpty == true)
        }
    }
}
