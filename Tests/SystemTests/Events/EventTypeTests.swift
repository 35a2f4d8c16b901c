import Foundation
import Testing

/// Every event type of API.md §6.2 produced by today's endpoints, reaching exactly its
/// recipients: the joined members (the actor's own sockets too), the one user for per-user
/// events, and never an outsider.
@Suite struct EventTypeTests {
    @Test func everyChannelEventReachesTheMembersAndNobodyElse() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evt", 3)
            let (actor, member, outsider) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [actor, member]])
            let actorSocket = try await api.events(cast.tokens[actor]!)
            let memberSocket = try await api.events(cast.tokens[member]!)
            let outsiderSocket = try await api.events(cast.tokens[outsider]!)
            let base = "/v3/group_channels/\(channel)"

            /// Does the request, then waits until both members have the event; returns the member's.
            func expectBoth(_ type: String, _ request: () async throws -> APIResponse) async throws -> [String: Any] {
                let response = try await request()
                #expect((200..<300).contains(response.status), "\(type): \(response.status) \(response.text)")
                _ = try await actorSocket.waitFor { $0["type"] as? String == type }
                return try await memberSocket.waitFor { $0["type"] as? String == type }
            }
            func data(_ frame: [String: Any]) -> [String: Any] { frame["data"] as? [String: Any] ?? [:] }

            let sent = try await expectBoth("message_received") {
                try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": actor, "message": "one"])
            }
            let messageID = try #require(data(sent)["message_id"] as? Int)
            let updated = try await expectBoth("message_updated") {
                try await api.put("\(base)/messages/\(messageID)", ["message_type": "MESG", "message": "two"])
            }
            #expect(data(updated)["message"] as? String == "two")
            let reaction = try await expectBoth("reaction_updated") {
                try await api.post("\(base)/messages/\(messageID)/reactions", ["user_id": actor, "reaction": "like"])
            }
            #expect(data(reaction)["operation"] as? String == "add")
            #expect(data(reaction)["key"] as? String == "like")
            #expect(data(reaction)["user_id"] as? String == actor)
            let read = try await expectBoth("read") { try await api.put("\(base)/messages/mark_as_read", ["user_id": member]) }
            #expect(data(read)["user_id"] as? String == member)
            _ = try await expectBoth("delivered") { try await api.put("\(base)/messages/mark_as_delivered", ["user_id": member]) }
            let changed = try await expectBoth("channel_changed") { try await api.put(base, ["name": "renamed"]) }
            #expect(data(changed)["name"] as? String == "renamed")
            _ = try await expectBoth("channel_frozen") { try await api.put("\(base)/freeze", ["freeze": true]) }
            _ = try await expectBoth("channel_unfrozen") { try await api.put("\(base)/freeze", ["freeze": false]) }
            let metadata = try await expectBoth("metadata_changed") {
                try await api.post("\(base)/metadata", ["metadata": ["topic": "cats"]])
            }
            #expect((data(metadata)["metadata"] as? [String: String])?["topic"] == "cats")
            let operators = try await expectBoth("operators_changed") {
                try await api.post("\(base)/operators", ["operator_ids": [member]])
            }
            #expect((data(operators)["users"] as? [[String: Any]])?.first?["user_id"] as? String == member)
            let deleted = try await expectBoth("message_deleted") { try await api.delete("\(base)/messages/\(messageID)") }
            #expect(data(deleted)["message_id"] as? Int == messageID)

            // Hiding is the member's own view: their sockets hear it, the others do not.
            #expect(try await api.put("\(base)/hide", ["user_id": member]).status == 200)
            _ = try await memberSocket.waitForEvent("channel_hidden")
            #expect(try await api.delete("\(base)/hide?user_id=\(member)").status == 200)
            _ = try await memberSocket.waitForEvent("channel_unhidden")

            _ = try await expectBoth("channel_deleted") { try await api.delete(base) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(actorSocket.events(ofType: "channel_hidden").isEmpty)
            #expect(outsiderSocket.events.isEmpty, "the outsider heard \(outsiderSocket.events)")
            // Per channel, in id order.
            let ids = memberSocket.events.compactMap { $0["event_id"] as? Int }
            #expect(ids == ids.sorted() && Set(ids).count == ids.count)
            for socket in [actorSocket, memberSocket, outsiderSocket] { socket.close() }
        }
    }

    /// The hub keeps a channel's members between events (MemberCache): a reset of one member's
    /// history, which no membership event announces, must still take effect at once.
    @Test func aMemberWhoResetTheirHistoryHearsNothingMoreAboutOlderMessages() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evh", 2)
            let (sender, member) = (cast[0], cast[1])
            let channel = try await api.createChannel(["user_ids": [sender, member]])
            let senderSocket = try await api.events(cast.tokens[sender]!)
            let memberSocket = try await api.events(cast.tokens[member]!)
            let base = "/v3/group_channels/\(channel)"
            let old = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "old"])
            let oldID = try #require(old.rawJSON["message_id"] as? Int)
            _ = try await memberSocket.waitForEvent("message_received")
            try await Task.sleep(for: .milliseconds(5))
            #expect(try await api.put("\(base)/reset_user_history", ["user_id": member]).status == 200)
            #expect(try await api.put("\(base)/messages/\(oldID)", ["message_type": "MESG", "message": "old, edited"]).status == 200)
            _ = try await senderSocket.waitForEvent("message_updated")
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "new"])
            _ = try await memberSocket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "new" }
            #expect(memberSocket.events(ofType: "message_updated").isEmpty, "the edit of a message the member reset away reached them")
            for socket in [senderSocket, memberSocket] { socket.close() }
        }
    }

    @Test func invitationsReachTheInviteeWhoMayDecline() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evi", 3)
            let (owner, invitee, outsider) = (cast[0], cast[1], cast[2])
            #expect(try await api.put("/v3/users/\(invitee)/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let channel = try await api.createChannel(["user_ids": [owner]])
            let ownerSocket = try await api.events(cast.tokens[owner]!)
            let inviteeSocket = try await api.events(cast.tokens[invitee]!)
            let outsiderSocket = try await api.events(cast.tokens[outsider]!)
            #expect(try await api.post("/v3/group_channels/\(channel)/invite", ["user_ids": [invitee], "inviter_id": owner]).status == 200)
            let invited = try await inviteeSocket.waitForEvent("user_invited")
            let data = try #require(invited["data"] as? [String: Any])
            #expect((data["inviter"] as? [String: Any])?["user_id"] as? String == owner)
            #expect((data["invitees"] as? [[String: Any]])?.first?["user_id"] as? String == invitee)
            _ = try await ownerSocket.waitForEvent("user_invited")
            // An invited user hears no messages until they join.
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": owner, "message": "x"])
            _ = try await ownerSocket.waitForEvent("message_received")
            #expect(try await api.put("/v3/group_channels/\(channel)/decline", ["user_id": invitee]).status == 200)
            _ = try await ownerSocket.waitForEvent("invitation_declined")
            _ = try await inviteeSocket.waitForEvent("invitation_declined")
            try await Task.sleep(for: .milliseconds(200))
            #expect(inviteeSocket.events(ofType: "message_received").isEmpty)
            #expect(outsiderSocket.events.isEmpty)
            for socket in [ownerSocket, inviteeSocket, outsiderSocket] { socket.close() }
        }
    }

    @Test func aMessageEventCarriesTheRecipientsOwnFileKey() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evf", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let socket = try await api.events(cast.tokens[cast[1]]!)
            let bytes = Media.random(2000)
            let upload = try await api.upload(channel, file: FormFile(bytes: bytes), as: cast.session(0))
            #expect(upload.status == 201, "\(upload.text)")
            let event = try await socket.waitForEvent("message_received")
            let url = try #require(((event["data"] as? [String: Any])?["file"] as? [String: Any])?["url"] as? String)
            // The link works for this recipient (their own key, on their membership), and its key
            // is not the sender's.
            #expect(try await api.download(url).bytes == bytes)
            let senderURL = try #require(try upload.decode(MessageBody.self).file?.url)
            #expect(senderURL != url)
            socket.close()
        }
    }
}
