import Foundation
import Testing

/// Who hears an event (API.md §6.1–6.3): the joined members and nobody else, unread counts at most once an interval, a rolled-back change never.
@Suite struct EventStreamDeliveryTests {
    @Test func helloThenMessagesReachEveryJoinedMemberAndNobodyElse() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ev", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let member = try await api.events(cast.tokens[cast[1]]!)
            let outsider = try await api.events(cast.tokens[cast[2]]!)
            let hello = try await member.hello()
            #expect(hello["ping_interval_ms"] as? Int == 30000)
            #expect(hello["connection_id"] as? String != nil)
            let sent = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "hi"], as: cast.session(0)
            )
            #expect(sent.status == 201)
            let event = try await member.waitForEvent("message_received")
            #expect(event["channel_url"] as? String == channel)
            #expect(event["channel_type"] as? String == "group")
            let data = try #require(event["data"] as? [String: Any])
            #expect(data["message"] as? String == "hi")
            #expect((data["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((event["event_id"] as? Int ?? 0) > (hello["last_event_id"] as? Int ?? 0))
            // The member's unread count moved to 1. (A count of 0 may come first: the joining
            // event moves counts too, and reaches a socket that subscribed before it was read.)
            _ = try await member.waitFor { frame in
                frame["type"] as? String == "unread_count_changed"
                    && (frame["data"] as? [String: Any])?["unread_message_count"] as? Int == 1
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(outsider.events.isEmpty)
            member.close()
            outsider.close()
        }
    }

    @Test func unreadCountsGoOutAtMostOncePerIntervalWithTheLatestCounts() async throws {
        try await TestServer.withAPI({ $0.events.unreadInterval = .seconds(4) }) { api in
            let cast = try await api.cast("evu", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let member = try await api.events(cast.tokens[cast[1]]!)
            _ = try await member.hello()
            // Whatever the channel's creation moved has gone out after one interval.
            try await Task.sleep(for: .seconds(4.5))
            let quiet = member.frames.count
            func send(_ text: String) async throws {
                let sent = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": text],
                    as: cast.session(0))
                #expect(sent.status == 201)
            }
            func unreadCount(_ frame: [String: Any]) -> Int? {
                guard frame["type"] as? String == "unread_count_changed" else { return nil }
                return (frame["data"] as? [String: Any])?["unread_message_count"] as? Int
            }
            try await send("one")
            _ = try await member.waitFor { unreadCount($0) == 1 }
            for text in ["two", "three", "four"] { try await send(text) }
            _ = try await member.waitFor { unreadCount($0) == 4 }
            // The moves after the first went out with the latest count, never sooner than the
            // interval after the frame before (by the server's stamps: how fast the sends and
            // frames travel under load does not matter). Every 200 ms, as before, would fail this.
            let frames = member.frames.dropFirst(quiet).filter { unreadCount($0) != nil }
            #expect(frames.last.flatMap(unreadCount) == 4)
            let stamps = frames.compactMap { $0["ts"] as? Int }
            #expect(stamps.count == frames.count && frames.count >= 2)
            for (earlier, later) in zip(stamps, stamps.dropFirst()) {
                #expect(later - earlier >= 3500, "\(stamps)")
            }
            member.close()
        }
    }

    @Test func membershipEventsReachTheRightUsers() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evm", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let first = try await api.events(cast.tokens[cast[0]]!)
            let leaver = try await api.events(cast.tokens[cast[1]]!)
            let newcomer = try await api.events(cast.tokens[cast[2]]!)
            #expect(try await api.post("/v3/group_channels/\(channel)/invite", ["user_ids": [cast[2]]]).status == 200)
            // The channel's creation may still be on its way to a socket opened right after it
            // (its events come after the socket's hello position): wait for the invitee's.
            func joinedUsers(_ frame: [String: Any]) -> [String]? {
                guard frame["type"] as? String == "member_joined" else { return nil }
                return ((frame["data"] as? [String: Any])?["users"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String }
            }
            let joined = try await first.waitFor { joinedUsers($0)?.contains(cast[2]) == true }
            #expect(joinedUsers(joined) == [cast[2]])
            _ = try await newcomer.waitForEvent("member_joined")
            #expect(try await api.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[1]]]).status == 200)
            _ = try await leaver.waitForEvent("member_left")
            _ = try await first.waitForEvent("member_left")
            // A member who left hears nothing more.
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "after"])
            _ = try await newcomer.waitForEvent("message_received")
            #expect(leaver.events(ofType: "message_received").isEmpty)
            for socket in [first, leaver, newcomer] { socket.close() }
        }
    }

    @Test func aRolledBackChangeProducesNoEvent() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evx", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let socket = try await api.events(cast.tokens[cast[1]]!)
            // Operators must be members: the whole request fails and rolls back.
            let refused = try await api.post("/v3/group_channels/\(channel)/operators", ["operator_ids": [cast[1], "nobody-here"]])
            #expect(refused.status == 400)
            _ = try await api.post("/v3/group_channels/\(channel)/operators", ["operator_ids": [cast[1]]])
            let changed = try await socket.waitForEvent("operators_changed")
            #expect(socket.events(ofType: "operators_changed").count == 1)
            #expect(((changed["data"] as? [String: Any])?["users"] as? [[String: Any]])?.count == 1)
            socket.close()
        }
    }
}
