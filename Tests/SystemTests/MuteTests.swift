import Foundation
import Testing

/// Mutes in group channels (API.md §7.2): a muted member reads but cannot send until the mute ends.
@Suite struct MuteTests: ModerationFixtures {
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
}
