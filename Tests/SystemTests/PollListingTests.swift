import Foundation
import Testing

/// `GET /v3/polls` (Sendbird's "list polls", API.md §13.4) and the configured option limit.
@Suite struct PollListingTests {
    static func ids(_ response: APIResponse) -> [Int] {
        (response.rawJSON["polls"] as? [[String: Any]] ?? []).map { $0["id"] as? Int ?? -1 }
    }

    @Test func aChannelsPollsAreListedNewestFirstToThoseWhoReadIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("plist", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let other = try await api.createChannel(["user_ids": [cast[2]]])
            var inChannel: [Int] = []
            for _ in 0..<3 { inChannel.append(try await PollTests.pollInChannel(api, channel, by: cast.session(0))["id"] as? Int ?? 0) }
            let elsewhere = try await PollTests.pollInChannel(api, other, by: cast.session(2))["id"] as? Int ?? 0
            let unsent =
                try await api.post("/v3/polls", ["title": "Draft", "options": ["x"]], as: cast.session(1)).rawJSON["id"] as? Int ?? 0
            let options = PollTests.optionIDs(try await api.get("/v3/polls/\(inChannel[1])").rawJSON)
            #expect(try await api.put("/v3/polls/\(inChannel[1])/vote", ["option_ids": [options[2]]], as: cast.session(1)).status == 200)

            // Newest first, in pages, each with the reader's own votes.
            let first = try await api.get("/v3/polls?channel_url=\(channel)&limit=2", as: cast.session(1))
            #expect(first.status == 200, "\(first.text)")
            #expect(Self.ids(first) == [inChannel[2], inChannel[1]])
            let voted = (first.rawJSON["polls"] as? [[String: Any]])?.map { $0["voted_option_ids"] as? [Int] }
            #expect(voted == [[], [options[2]]])
            let next = try #require(first.rawJSON["next"] as? String)
            let second = try await api.get("/v3/polls?channel_url=\(channel)&channel_type=group_channels&limit=2&token=\(next)")
            #expect(Self.ids(second) == [inChannel[0]])
            #expect(second.rawJSON["next"] as? String == "")
            // A token is for the listing it came from.
            #expect(try await api.get("/v3/polls?channel_url=\(other)&token=\(next)").code == 400109)

            // Those who may not read the channel learn nothing of it.
            #expect(try await api.get("/v3/polls?channel_url=\(channel)", as: cast.session(2)).code == 400201)
            #expect(try await api.get("/v3/polls?channel_url=\(channel)&channel_type=open_channels").code == 400201)
            #expect(try await api.get("/v3/polls?channel_url=\(channel)&channel_type=mixed").code == 400111)
            // Without a channel: a session user's own polls; the admin's, every poll.
            #expect(Self.ids(try await api.get("/v3/polls", as: cast.session(1))) == [unsent])
            let all = Self.ids(try await api.get("/v3/polls?limit=100"))
            #expect(Set([unsent, elsewhere] + inChannel).isSubset(of: Set(all)))
            #expect(all == all.sorted(by: >))
        }
    }

    @Test func aPollHasAtMostTheConfiguredOptions() async throws {
        try await TestServer.withAPI({ $0.limits.pollOptions = 3 }) { api in
            let cast = try await api.cast("plim", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let tooMany = try await api.post("/v3/polls", ["title": "t", "options": ["a", "b", "c", "d"]], as: cast.session(0))
            #expect(try tooMany.code == 400111, "\(tooMany.text)")
            let poll = try await PollTests.pollInChannel(api, channel, by: cast.session(0), options: ["a", "b"])
            let path = "/v3/polls/\(poll["id"] as? Int ?? 0)/options"
            // The admin adds the third: its `created_by` is null, not absent.
            let added = try await api.post(path, ["text": "c"])
            #expect(added.status == 200, "\(added.text)")
            let third = PollTests.optionIDs(added.rawJSON)[2]
            let option = try await api.get("\(path)/\(third)").rawJSON
            #expect(option["text"] as? String == "c" && option["created_by"] is NSNull, "\(option)")
            #expect(try await api.post(path, ["text": "d"], as: cast.session(0)).code == 400203)
        }
    }
}
