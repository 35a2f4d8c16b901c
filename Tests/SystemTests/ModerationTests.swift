import Foundation
import Testing

/// Bans, mutes and the audit log (API.md §7.1, §7.2, §7.5) through HTTP and the event stream.
@Suite struct ModerationTests {
    private func message(_ api: API, _ channel: String, from userID: String, _ text: String, as credential: Credential = .admin)
        async throws -> APIResponse
    {
        try await api.post(
            "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": userID, "message": text], as: credential)
    }

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

    @Test func aMutedMemberReadsButCannotSendUntilTheMuteEnds() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let cast = try await api.cast("mute", 3)
            let (op, target, other) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [op, target, other], "operator_ids": [op]])
            let base = "/v3/group_channels/\(channel)"
            let otherSocket = try await api.events(cast.tokens[other]!)
            let targetSocket = try await api.events(cast.tokens[target]!)
            let muted = try await api.post("\(base)/mute", ["user_id": target, "seconds": 30], as: cast.session(0))
            #expect(muted.status == 200, "\(muted.text)")
            #expect(muted.rawJSON["channel_url"] as? String == channel)
            _ = try await otherSocket.waitForEvent("user_muted")
            _ = try await targetSocket.waitForEvent("user_muted")

            let send = try await message(api, channel, from: target, "hello", as: cast.session(1))
            #expect(send.status == 403, "\(send.text)")
            #expect(try send.code == 900041)
            #expect(try await message(api, channel, from: other, "they can read this").status == 201)
            let history = try await api.get("\(base)/messages?message_ts=\(Int64.max)", as: cast.session(1))
            #expect(history.status == 200)

            let status = try await api.get("\(base)/mute/\(target)")
            #expect(status.rawJSON["is_muted"] as? Bool == true)
            #expect(status.rawJSON["remaining_duration"] as? Int == 30_000)
            let members = try await api.get("\(base)/members?muted_member_filter=muted")
            let mutedMembers = members.rawJSON["members"] as? [[String: Any]] ?? []
            #expect(mutedMembers.map { $0["user_id"] as? String } == [target], "\(members.text)")
            #expect(mutedMembers.first?["is_muted"] as? Bool == true)
            #expect(mutedMembers.first?["muted_end_at"] as? Int == 1_800_000_030_000)
            let unmuted = try await api.get("\(base)/members?muted_member_filter=unmuted")
            #expect((unmuted.rawJSON["members"] as? [[String: Any]])?.count == 2)
            #expect(try await api.get("\(base)/mute").rawJSON["total_mute_count"] as? Int == 1)
            let mine = try await api.get("/v3/users/\(target)/mute", as: cast.session(1))
            #expect((mine.rawJSON["muted_channels"] as? [[String: Any]])?.count == 1, "\(mine.text)")

            time.advance(by: 30_000)
            #expect(try await api.get("\(base)/mute/\(target)").rawJSON["is_muted"] as? Bool == false)
            #expect(try await message(api, channel, from: target, "free", as: cast.session(1)).status == 201)

            // Muted again, then unmuted by hand.
            #expect(try await api.post("\(base)/mute", ["user_id": target]).status == 200)
            #expect(try await message(api, channel, from: target, "x").status == 403)
            #expect(try await api.delete("\(base)/mute/\(target)").status == 200)
            _ = try await targetSocket.waitForEvent("user_unmuted")
            #expect(try await message(api, channel, from: target, "y").status == 201)
            for socket in [otherSocket, targetSocket] { socket.close() }
        }
    }

    /// Who may moderate: the admin and the channel's operators, never an operator on another
    /// operator; nobody acts for someone else.
    @Test func theAuthorisationMatrix() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("modz", 5)
            let (op, op2, member, target, outsider) = (cast[0], cast[1], cast[2], cast[3], cast[4])
            let channel = try await api.createChannel(["user_ids": [op, op2, member, target], "operator_ids": [op, op2]])
            let base = "/v3/group_channels/\(channel)"
            for path in ["ban", "mute"] {
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: .none).status == 401)
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(4)).status == 404, "outsider")
                let byMember = try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(2))
                #expect(byMember.status == 403, "member: \(byMember.text)")
                let onOperator = try await api.post("\(base)/\(path)", ["user_id": op2], as: cast.session(0))
                #expect(onOperator.status == 403, "an operator on an operator")
                let asOther = try await api.post("\(base)/\(path)", ["user_id": target, "agent_id": op2], as: cast.session(0))
                #expect(asOther.status == 403, "acting for someone else")
                #expect(try await api.get("\(base)/\(path)", as: cast.session(2)).status == 403)
                #expect(try await api.get("\(base)/\(path)", as: cast.session(4)).status == 404)
                #expect(try await api.get("\(base)/\(path)", as: .none).status == 401)
                #expect(try await api.get("\(base)/\(path)").rawJSON["total_\(path)_count"] as? Int == 0)
            }
            #expect(try await api.post("\(base)/mute", ["user_id": target], as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/mute/\(target)", as: cast.session(2)).status == 403)
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(3)).rawJSON["is_muted"] as? Bool == true, "their own")
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(2)).status == 403, "someone else's")
            // The admin may ban an operator.
            #expect(try await api.post("\(base)/ban", ["user_id": op2, "agent_id": op]).status == 200)
            #expect(try await api.get("/v3/users/\(op2)/ban", as: cast.session(0)).status == 403)
            #expect(try await api.get("/v3/audit_logs", as: cast.session(0)).status == 403)
            _ = outsider
            _ = member
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

    @Test func theAuditLogRecordsModeratorActionsAndFilters() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("aud", 3)
            let (op, target, other) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [op, target, other], "operator_ids": [op]])
            let base = "/v3/group_channels/\(channel)"
            let sent = try await message(api, channel, from: other, "rude")
            let messageID = try #require(sent.rawJSON["message_id"] as? Int)
            let own = try await message(api, channel, from: op, "mine")
            #expect(try await api.post("\(base)/mute", ["user_id": target, "seconds": 5], as: cast.session(0)).status == 200)
            #expect(try await api.put("\(base)/freeze", ["freeze": true], as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/messages/\(messageID)", as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/messages/\(own.rawJSON["message_id"] as? Int ?? 0)", as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/ban", ["user_id": target]).status == 200)
            #expect(try await api.delete(base).status == 200)

            let all = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=100")
            let entries = all.rawJSON["audit_logs"] as? [[String: Any]] ?? []
            #expect(
                entries.map { $0["action"] as? String } == ["channel_deleted", "ban", "message_deleted", "freeze", "mute"], "\(all.text)")
            #expect(entries.first { $0["action"] as? String == "mute" }?["actor"] as? String == op)
            #expect(entries.first { $0["action"] as? String == "ban" }?["actor"] as? String == "admin")
            #expect(entries.first { $0["action"] as? String == "message_deleted" }?["message_id"] as? Int == messageID)
            #expect(entries.first { $0["action"] as? String == "message_deleted" }?["target_user_id"] as? String == other)

            // Filters and pages.
            let bans = try await api.get("/v3/audit_logs?channel_url=\(channel)&action=ban")
            #expect((bans.rawJSON["audit_logs"] as? [[String: Any]])?.count == 1)
            let byOperator = try await api.get("/v3/audit_logs?channel_url=\(channel)&actor_id=\(op)")
            #expect((byOperator.rawJSON["audit_logs"] as? [[String: Any]])?.count == 3)
            let first = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=2")
            let next = try #require(first.rawJSON["next"] as? String)
            let second = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=2&token=\(next)")
            #expect((second.rawJSON["audit_logs"] as? [[String: Any]])?.first?["action"] as? String == "message_deleted")
            #expect(try await api.get("/v3/audit_logs?action=nonsense").status == 400)
            // Read-only: no route changes it.
            #expect(try await api.delete("/v3/audit_logs").status == 405)
        }
    }
}
