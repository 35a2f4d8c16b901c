import Foundation
import Testing

/// Auto event messages (API.md §14.7): a group channel's creation, joins, leaves and changes are
/// told in the channel by a silent admin message, when the admin turns them on.
@Suite struct AutoEventMessageTests {
    static let path = "/v3/applications/settings/auto_event_message"

    static func texts(_ api: API, _ channel: String) async throws -> [String] {
        let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max / 2)&prev_limit=20")
        return (history.rawJSON["messages"] as? [[String: Any]])?.filter { $0["type"] as? String == "ADMM" }
            .compactMap { $0["message"] as? String } ?? []
    }

    @Test func eventsAreToldInTheChannelWhenOn() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let initial = try await api.get(Self.path).rawJSON["auto_event_message"] as? [String: Any]
                #expect((initial?["user_join"] as? [String: Any])?["is_enabled"] as? Bool == false)
                let cast = try await api.cast("ae", 3)
                let before = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Quiet"])
                #expect(try await Self.texts(api, before).isEmpty)

                let set = try await api.put(
                    Self.path,
                    [
                        "auto_event_message": [
                            "user_join": ["is_enabled": true], "user_leave": ["is_enabled": true, "message": "Bye {nicknames}!"],
                            "channel_create": ["is_enabled": true], "channel_change": ["is_enabled": true]
                        ]
                    ])
                #expect(set.status == 200, "\(set.text)")
                let settings = set.rawJSON["auto_event_message"] as? [String: Any]
                #expect((settings?["user_leave"] as? [String: Any])?["message"] as? String == "Bye {nicknames}!")
                #expect((settings?["user_join"] as? [String: Any])?["message"] as? String == "{nicknames} joined.")

                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Team", "is_public": true])
                #expect(try await Self.texts(api, channel) == ["Team was created."])
                _ = try await api.put("/v3/users/\(cast[2])", ["nickname": "Carol"])
                #expect(try await api.put("/v3/group_channels/\(channel)/join", [:], as: cast.session(2)).status == 200)
                #expect(try await api.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[2]]]).status == 200)
                #expect(try await api.put("/v3/group_channels/\(channel)", ["name": "Team 2"]).status == 200)
                #expect(try await Self.texts(api, channel) == ["Team was created.", "Carol joined.", "Bye Carol!", "Team 2 was changed."])
                // Silent: nobody's unread count moved.
                let unread = try await api.get("/v3/users/\(cast[1])/unread_message_count", as: cast.session(1))
                #expect(unread.rawJSON["unread_count"] as? Int == 0)

                #expect(try await api.put(Self.path, ["auto_event_message": ["user_join": ["is_enabled": false]]]).status == 200)
                #expect(try await api.put("/v3/group_channels/\(channel)/join", [:], as: cast.session(2)).status == 200)
                #expect(try await Self.texts(api, channel).count == 4)
                // A deleted account leaves without its name left behind.
                #expect(try await api.delete("/v3/users/\(cast[2])").status == 200)
                #expect(try await Self.texts(api, channel).count == 4)
            }
        }
    }

    @Test func badSettingsChangeNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ab", 1)
            #expect(try await api.put(Self.path, [:]).status == 400)
            #expect(try await api.put(Self.path, ["auto_event_message": ["user_join": ["message": ""]]]).status == 400)
            #expect(try await api.put(Self.path, ["auto_event_message": ["user_join": ["is_enabled": "yes"]]]).status == 400)
            #expect(
                try await api.put(Self.path, ["auto_event_message": ["user_join": ["is_enabled": true]]], as: cast.session(0)).status == 403
            )
            #expect(try await api.get(Self.path, as: cast.session(0)).status == 403)
        }
    }
}
