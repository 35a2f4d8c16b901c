import Foundation
import Testing

/// Bans in group channels (API.md §7.1): what a ban refuses and for how long, changing and lifting it, a send racing it.
@Suite struct BanTests: ModerationFixtures {
    @Test func aBannedMemberLeavesAndIsRefusedEverywhereUntilTheBanEnds() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let cast = try await api.cast("ban", 3)
            let (op, target, other) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [op, target, other], "operator_ids": [op], "is_public": true])
            let base = "/v3/group_channels/\(channel)"
            let targetSocket = try await api.events(cast.tokens[target]!)
            let otherSocket = try await api.events(cast.tokens[other]!)

            let ban = try await api.post("\(base)/ban", ["user_id": target, "seconds": 60, "description": "spam"], as: cast.session(0))
            #expect(ban.status == 200, "\(ban.text)")
            let banned = ban.rawJSON
            #expect((banned["user"] as? [String: Any])?["user_id"] as? String == target)
            #expect(banned["start_at"] as? Int == 1_800_000_000_000)
            #expect(banned["end_at"] as? Int == 1_800_000_060_000)
            #expect(banned["description"] as? String == "spam")

            // Out at once, and told so; the others hear both.
            let state = try await api.get("\(base)/members/\(target)")
            #expect(state.rawJSON["is_member"] as? Bool == false, "\(state.text)")
            _ = try await targetSocket.waitForEvent("member_left")
            let event = try await targetSocket.waitForEvent("user_banned")
            #expect(((event["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == target)
            _ = try await otherSocket.waitForEvent("user_banned")

            // Refused on join, invitation (and so accept) and send.
            let join = try await api.put("\(base)/join", ["user_id": target], as: cast.session(1))
            #expect(join.status == 403, "\(join.text)")
            #expect(try join.code == 400750)
            let invite = try await api.post("\(base)/invite", ["user_ids": [target]])
            #expect(invite.status == 403)
            #expect(try invite.code == 400750)
            let send = try await message(api, channel, from: target, "still here?")
            #expect(send.status == 403, "\(send.text)")
            #expect(try send.code == 900100)
            let sendOwn = try await message(api, channel, from: target, "me", as: cast.session(1))
            #expect(sendOwn.status == 403)
            #expect(try sendOwn.code == 900100)
            let history = try await api.get("\(base)/messages?message_ts=\(Int64.max)", as: cast.session(1))
            #expect(history.status == 403)

            // The lists and the user's own view.
            let list = try await api.get("\(base)/ban", as: cast.session(0))
            #expect(list.rawJSON["total_ban_count"] as? Int == 1)
            #expect((list.rawJSON["banned_list"] as? [[String: Any]])?.count == 1)
            let one = try await api.get("\(base)/ban/\(target)")
            #expect(one.status == 200)
            let mine = try await api.get("/v3/users/\(target)/ban", as: cast.session(1))
            let channels = mine.rawJSON["banned_channels"] as? [[String: Any]]
            #expect((channels?.first?["channel"] as? [String: Any])?["channel_url"] as? String == channel, "\(mine.text)")
            #expect(try await api.get("/v3/users/\(target)/ban", as: cast.session(2)).status == 403)

            // The ban ends when read past its end: no sweeper is needed.
            time.advance(by: 60_001)
            #expect(try await api.get("\(base)/ban").rawJSON["total_ban_count"] as? Int == 0)
            #expect(try await api.get("\(base)/ban/\(target)").status == 404)
            #expect(try await api.put("\(base)/join", ["user_id": target], as: cast.session(1)).status == 200)
            #expect(try await message(api, channel, from: target, "back").status == 201)
            for socket in [targetSocket, otherSocket] { socket.close() }
        }
    }

    @Test func updatingAndLiftingABanAndAcceptingAnInvitationAfterIt() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let cast = try await api.cast("banu", 2)
            let (owner, target) = (cast[0], cast[1])
            #expect(try await api.put("/v3/users/\(target)/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let channel = try await api.createChannel(["user_ids": [owner]])
            let base = "/v3/group_channels/\(channel)"
            #expect(try await api.post("\(base)/invite", ["user_ids": [target]]).status == 200)
            // A ban of an invited user: their invitation goes, and it cannot be accepted.
            #expect(try await api.post("\(base)/ban", ["user_id": target]).status == 200)
            let accept = try await api.put("\(base)/accept", ["user_id": target], as: cast.session(1))
            #expect(accept.status >= 400, "\(accept.text)")
            let permanent = try await api.get("\(base)/ban/\(target)")
            #expect(permanent.rawJSON["end_at"] as? Int == -1)
            let updated = try await api.put("\(base)/ban/\(target)", ["seconds": 10, "description": "shorter"])
            #expect(updated.rawJSON["end_at"] as? Int == 1_800_000_010_000, "\(updated.text)")
            #expect(updated.rawJSON["description"] as? String == "shorter")
            #expect(try await api.delete("\(base)/ban/\(target)").status == 200)
            #expect(try await api.delete("\(base)/ban/\(target)").status == 404)
            #expect(try await api.post("\(base)/invite", ["user_ids": [target]]).status == 200)
            #expect(try await api.put("\(base)/accept", ["user_id": target], as: cast.session(1)).status == 200)
            // Bad input changes nothing.
            for seconds in [0, -2, 315_360_001] {
                let bad = try await api.post("\(base)/ban", ["user_id": target, "seconds": seconds])
                #expect(bad.status == 400, "seconds \(seconds): \(bad.text)")
            }
            #expect(try await api.post("\(base)/ban", ["user_id": "nobody-\(UUID())"]).status == 400)
            #expect(try await api.post("\(base)/ban", ["seconds": 5]).status == 400)
            #expect(try await api.get("\(base)/ban").rawJSON["total_ban_count"] as? Int == 0)
        }
    }

    /// A send racing the ban: every message of the banned user that was accepted comes before the
    /// ban in the channel's event order, and none is accepted after it.
    @Test func noMessageOfABannedUserIsAcceptedAfterTheBan() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("banr", 3)
            let (op, target, watcher) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [op, target, watcher], "operator_ids": [op]])
            let watcherSocket = try await api.events(cast.tokens[watcher]!)
            let sender = Task { () -> [Int] in
                var accepted: [Int] = []
                for index in 0..<60 {
                    let response = try await message(api, channel, from: target, "m\(index)", as: cast.session(1))
                    if response.status == 201, let id = response.rawJSON["message_id"] as? Int { accepted.append(id) }
                }
                return accepted
            }
            try await Task.sleep(for: .milliseconds(40))
            #expect(try await api.post("/v3/group_channels/\(channel)/ban", ["user_id": target]).status == 200)
            let accepted = try await sender.value
            #expect(accepted.count < 60, "the ban stopped nothing")
            let ban = try await watcherSocket.waitForEvent("user_banned")
            let banID = try #require(ban["event_id"] as? Int)
            try await Task.sleep(for: .milliseconds(200))
            let fromTarget = watcherSocket.events(ofType: "message_received").filter {
                (($0["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == target
            }
            #expect(fromTarget.allSatisfy { ($0["event_id"] as? Int ?? .max) < banID })
            #expect(Set(fromTarget.compactMap { ($0["data"] as? [String: Any])?["message_id"] as? Int }) == Set(accepted))
            watcherSocket.close()
        }
    }
}
