import Foundation
import Testing

/// API.md §3.2, §3.4: a distinct channel is reused for the same member set until it changes.
@Suite struct DistinctChannelTests {
    @Test func sameMemberSetReturnsTheSameChannelWith200() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("distinct", 3)
            let first = try await api.post(
                "/v3/group_channels", ["user_ids": [users[1], users[2]], "is_distinct": true], as: users.session(0))
            #expect(first.status == 201)
            // The same set, named in another order and by another of its members.
            let second = try await api.post(
                "/v3/group_channels", ["user_ids": [users[0], users[2]], "is_distinct": true], as: users.session(1))
            #expect(second.status == 200)
            #expect(try second.decode(ChannelBody.self).channelURL == first.decode(ChannelBody.self).channelURL)
            let oneOnOne = try await api.post("/v3/group_channels", ["user_ids": [users[1]], "is_distinct": true], as: users.session(0))
            #expect(oneOnOne.status == 201)
            #expect(try oneOnOne.decode(ChannelBody.self).channelURL != first.decode(ChannelBody.self).channelURL)
            let notDistinct = try await api.post("/v3/group_channels", ["user_ids": [users[1], users[2]]], as: users.session(0))
            #expect(notDistinct.status == 201)
        }
    }

    @Test func concurrentCreatesOfOneDistinctChannelYieldOneChannel() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("distinctrace", 2)
            // On connections of their own (`API.burst`): one connection's requests run in turn.
            let results = try await api.burst(10) { client, index in
                let response = try await client.post(
                    "/v3/group_channels", ["user_ids": [users[index % 2 == 0 ? 1 : 0]], "is_distinct": true], as: users.session(index % 2))
                return (response.status, try response.decode(ChannelBody.self).channelURL)
            }
            #expect(Set(results.map(\.1)).count == 1)
            #expect(results.filter { $0.0 == 201 }.count == 1)
            #expect(results.filter { $0.0 == 200 }.count == 9)
        }
    }

    @Test func invitingOrLeavingEndsDistinctness() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("distinctend", 3)
            let invited = try await api.createChannel(["user_ids": [users[1]], "is_distinct": true], as: users.session(0))
            let afterInvite = try await api.post("/v3/group_channels/\(invited)/invite", ["user_ids": [users[2]]], as: users.session(0))
            #expect(try afterInvite.decode(ChannelBody.self).isDistinct == false)
            // The old pair gets a new distinct channel now.
            let fresh = try await api.post("/v3/group_channels", ["user_ids": [users[1]], "is_distinct": true], as: users.session(0))
            #expect(fresh.status == 201)
            let freshURL = try fresh.decode(ChannelBody.self).channelURL
            #expect(try await api.put("/v3/group_channels/\(freshURL)/leave", ["user_ids": [users[1]]], as: users.session(1)).status == 200)
            #expect(try await api.get("/v3/group_channels/\(freshURL)").decode(ChannelBody.self).isDistinct == false)
            let third = try await api.post("/v3/group_channels", ["user_ids": [users[1]], "is_distinct": true], as: users.session(0))
            #expect(third.status == 201)
            #expect(try third.decode(ChannelBody.self).channelURL != freshURL)
        }
    }
}
