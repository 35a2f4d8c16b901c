import Foundation
import Testing

/// The application's default channel invitation preference (API.md §14.7), on a database of its
/// own (it is the whole application's).
@Suite struct DefaultInvitationPreferenceTests {
    @Test func usersWithoutAPreferenceOfTheirOwnFollowTheDefault() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let path = "/v3/applications/default_channel_invitation_preference"
                let cast = try await api.cast("invitedefault", 3)
                #expect(try await api.get(path).rawJSON["auto_accept"] as? Bool == true)
                #expect(try await api.put(path, ["auto_accept": false]).rawJSON["auto_accept"] as? Bool == false)
                #expect(try await api.get(path).rawJSON["auto_accept"] as? Bool == false)
                #expect(try await api.put(path, ["auto_accept": "no"]).code == 400104)
                #expect(try await api.put(path, [:]).code == 400105)
                #expect(try await api.get(path, as: cast.session(0)).status == 403)
                // The third says they auto-accept; the second follows the default and is invited.
                let own = "/v3/users/\(cast[2])/channel_invitation_preference"
                #expect(try await api.put(own, ["auto_accept": true], as: cast.session(2)).status == 200)
                #expect(try await api.get("/v3/users/\(cast[1])/channel_invitation_preference").rawJSON["auto_accept"] as? Bool == false)
                let channel = try await api.createChannel(["user_ids": cast.ids], as: cast.session(0))
                let members =
                    try await api.get("/v3/group_channels/\(channel)/members?limit=10").rawJSON["members"] as? [[String: Any]] ?? []
                let states = Dictionary(
                    uniqueKeysWithValues: members.map { ($0["user_id"] as? String ?? "", $0["state"] as? String ?? "") })
                #expect(states == [cast[0]: "joined", cast[1]: "invited", cast[2]: "joined"], "\(members)")
            }
        }
    }
}
