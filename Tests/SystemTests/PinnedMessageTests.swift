import Foundation
import Testing

/// `POST|DELETE …/messages/{message_id}/pin` and `GET …/pinned_messages` (API.md §13.2).
@Suite struct PinnedMessageTests: MessageFixtures {
    /// The channel's `pinned_message_ids` and its `last_pinned_message`'s id, from a response.
    static func pins(_ response: APIResponse) -> (ids: [Int], last: Int?) {
        let json = response.rawJSON
        return ((json["pinned_message_ids"] as? [Int]) ?? [-1], (json["last_pinned_message"] as? [String: Any])?["message_id"] as? Int)
    }

    @Test func operatorsPinUnpinAndListNewestFirst() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pin", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]], "operator_ids": [cast[0]]])
            let ids = try await sendMany(api, channel, 4, as: cast.session(1))
            let base = "/v3/group_channels/\(channel)"
            let memberSocket = try await api.events(cast.tokens[cast[2]]!)
            for id in ids.prefix(3) {
                let pinned = try await api.post("\(base)/messages/\(id)/pin", as: cast.session(0))
                #expect(pinned.status == 200, "\(pinned.text)")
                #expect(Self.pins(pinned).last == id)
            }
            let event = try await memberSocket.waitFor { $0["type"] as? String == "message_pinned" }
            #expect((event["data"] as? [String: Any])?["message_id"] as? Int == ids[0])
            #expect(Self.pins(try await api.get(base)).ids == [ids[2], ids[1], ids[0]])
            // Pinning again changes nothing.
            #expect(Self.pins(try await api.post("\(base)/messages/\(ids[1])/pin", as: cast.session(0))).ids == [ids[2], ids[1], ids[0]])

            let first = try await api.get("\(base)/pinned_messages?limit=2", as: cast.session(2))
            #expect(first.status == 200)
            let firstPage = try first.decode(PinnedPage.self)
            #expect(firstPage.pinnedMessages.map(\.messageID) == [ids[2], ids[1]])
            let second = try await api.get("\(base)/pinned_messages?limit=2&token=\(firstPage.next)", as: cast.session(2))
            let secondPage = try second.decode(PinnedPage.self)
            #expect(secondPage.pinnedMessages.map(\.messageID) == [ids[0]])
            #expect(secondPage.next == "")

            let unpinned = try await api.delete("\(base)/messages/\(ids[2])/pin", as: cast.session(0))
            #expect(Self.pins(unpinned).ids == [ids[1], ids[0]])
            #expect(Self.pins(unpinned).last == ids[1])
            _ = try await memberSocket.waitFor {
                $0["type"] as? String == "message_unpinned" && ($0["data"] as? [String: Any])?["message_id"] as? Int == ids[2]
            }
            #expect(try await api.delete("\(base)/messages/\(ids[2])/pin", as: cast.session(0)).code == 400201)

            // A deleted message is unpinned with it.
            #expect(try await api.delete("\(base)/messages/\(ids[1])").status == 200)
            _ = try await memberSocket.waitFor {
                $0["type"] as? String == "message_unpinned" && ($0["data"] as? [String: Any])?["message_id"] as? Int == ids[1]
            }
            #expect(Self.pins(try await api.get(base)).ids == [ids[0]])
            #expect(try await api.post("\(base)/messages/\(ids[1])/pin").code == 400201)
            memberSocket.close()
        }
    }

    /// The pins are the channel's: a pin puts it into its members' changelog, and a channel
    /// deleted with pins goes with them.
    @Test func aPinChangesTheChannelAndGoesWithIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinlog", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "operator_ids": [cast[0]]])
            let id = try await sendMany(api, channel, 1, as: cast.session(1))[0]
            try await Task.sleep(for: .milliseconds(5))
            let since = Int(Date.now.timeIntervalSince1970 * 1000)
            let path = "/v3/users/\(cast[1])/my_group_channels/changelogs?change_ts=\(since)"
            #expect((try await api.get(path, as: cast.session(1)).rawJSON["updated"] as? [Any])?.isEmpty == true)
            #expect(try await api.post("/v3/group_channels/\(channel)/messages/\(id)/pin", as: cast.session(0)).status == 200)
            let updated = try await api.get(path, as: cast.session(1)).rawJSON["updated"] as? [[String: Any]] ?? []
            #expect(updated.map { $0["channel_url"] as? String } == [channel])
            #expect(updated.first?["pinned_message_ids"] as? [Int] == [id])
            #expect(try await api.delete("/v3/group_channels/\(channel)").status == 200)
            #expect(try await api.get("/v3/group_channels/\(channel)").code == 400201)
        }
    }

    @Test func whoMayPin() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinwho", 4)
            let group = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]], "operator_ids": [cast[0]]])
            let groupMessage = try await sendMany(api, group, 1, as: cast.session(1))[0]
            let refused = try await api.post("/v3/group_channels/\(group)/messages/\(groupMessage)/pin", as: cast.session(1))
            #expect(refused.status == 403)
            #expect(try refused.code == 400108)
            // An outsider does not see the channel at all.
            #expect(try await api.post("/v3/group_channels/\(group)/messages/\(groupMessage)/pin", as: cast.session(3)).code == 400201)
            #expect(try await api.get("/v3/group_channels/\(group)/pinned_messages", as: cast.session(3)).code == 400201)
            // In a 1-to-1 channel both members pin.
            let pair = try await api.createChannel(["user_ids": [cast[1], cast[2]]])
            let pairMessage = try await sendMany(api, pair, 1, as: cast.session(1))[0]
            #expect(try await api.post("/v3/group_channels/\(pair)/messages/\(pairMessage)/pin", as: cast.session(2)).status == 200)
            // A message of another channel is not this channel's to pin.
            #expect(try await api.post("/v3/group_channels/\(pair)/messages/\(groupMessage)/pin").code == 400201)
        }
    }

    @Test func aVisitorOfAPublicChannelSeesTheIdsButNotThePinnedMessage() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinpub", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0]], "is_public": true])
            let id = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            #expect(try await api.post("/v3/group_channels/\(channel)/messages/\(id)/pin").status == 200)
            let visitor = try await api.get("/v3/group_channels/\(channel)", as: cast.session(1))
            #expect(visitor.status == 200)
            #expect(Self.pins(visitor).ids == [id])
            #expect(visitor.rawJSON["last_pinned_message"] is NSNull)
            #expect(try await api.get("/v3/group_channels/\(channel)/pinned_messages", as: cast.session(1)).status == 403)
            #expect(Self.pins(try await api.get("/v3/group_channels/\(channel)", as: cast.session(0))).last == id)
        }
    }

    @Test func anOpenChannelPinsToo() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinopen", 1)
            let url = uniqueID("pinopen")
            let opened = try await api.post("/v3/open_channels", ["channel_url": url])
            #expect(opened.status == 201)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", ["user_id": cast[0]]).status == 200)
            let sent = try await api.post("/v3/open_channels/\(url)/messages", ["message": "hello"], as: cast.session(0))
            let id = try sent.decode(MessageBody.self).messageID
            let pinned = try await api.post("/v3/open_channels/\(url)/messages/\(id)/pin")
            #expect(pinned.status == 200)
            #expect(pinned.rawJSON["channel_url"] as? String == url)
            #expect(try await api.post("/v3/open_channels/\(url)/messages/\(id)/pin", as: cast.session(0)).code == 400108)
            let listed = try await api.get("/v3/open_channels/\(url)/pinned_messages", as: cast.session(0))
            #expect(try listed.decode(PinnedPage.self).pinnedMessages.map(\.messageID) == [id])
            // The channel resource carries its pins, as a group channel's does.
            #expect(pinned.rawJSON["pinned_message_ids"] as? [Int] == [id])
            let shown = try await api.get("/v3/open_channels/\(url)", as: cast.session(0)).rawJSON
            #expect(shown["pinned_message_ids"] as? [Int] == [id])
            #expect((shown["last_pinned_message"] as? [String: Any])?["message"] as? String == "hello")
            let list = try await api.get("/v3/open_channels?url_contains=\(url)").rawJSON["channels"] as? [[String: Any]]
            #expect(list?.first?["pinned_message_ids"] as? [Int] == [id])
            #expect(try await api.delete("/v3/open_channels/\(url)/messages/\(id)/pin").status == 200)
            let unpinned = try await api.get("/v3/open_channels/\(url)").rawJSON
            #expect(unpinned["pinned_message_ids"] as? [Int] == [])
            #expect(unpinned["last_pinned_message"] is NSNull)
        }
    }
}

/// `GET …/pinned_messages`.
struct PinnedPage: Decodable {
    let pinnedMessages: [MessageBody]
    let next: String

    enum CodingKeys: String, CodingKey {
        case pinnedMessages = "pinned_messages"
        case next
    }
}
