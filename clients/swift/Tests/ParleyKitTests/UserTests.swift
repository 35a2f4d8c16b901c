import Foundation
import ParleyKit
import Testing

/// Profiles and metadata through ParleyKit. Metadata keys stay as written (underscores, capitals):
/// the JSON key conversion of ParleyKit's models leaves dictionary keys alone.
@Suite struct UserTests {
    @Test func profilesAndMetadata() async throws {
        let server = try await ParleyServer()
        let (aliceId, aliceToken) = try await server.user("alice")
        let (bobId, _) = try await server.user("bob")
        let alice = ParleyClient(baseURL: server.baseURL)
        try await alice.connect(userId: aliceId, sessionToken: aliceToken)
        let changed = try await alice.users.updateProfile(nickname: "Alice A.", profileURL: "https://example.com/a.png")
        #expect(changed.nickname == "Alice A." && changed.profileURL == "https://example.com/a.png")
        #expect(try await alice.users.get(aliceId).nickname == "Alice A.")
        #expect(try await alice.users.get(bobId).isOnline == false)

        try await alice.users.updateMyMetadata(["home_city": "Seoul", "favoriteColor": "blue", "URL": "x"])
        #expect(try await alice.users.myMetadata() == ["home_city": "Seoul", "favoriteColor": "blue", "URL": "x"])
        var params = GroupChannelCreateParams(userIds: [aliceId, bobId])
        params.operatorIds = [aliceId]
        let url = try await alice.groupChannels.create(params).channelURL
        try await alice.users.updateChannelMetadata(url, ["topic_of_the_day": "snow"])
        #expect(try await alice.users.channelMetadata(url) == ["topic_of_the_day": "snow"])
        await alice.disconnect()
        server.stop()
    }
}
