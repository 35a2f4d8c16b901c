import Foundation
import Testing

/// Moderating open channels (API.md §7 on §8): bans and mutes of participants, and who may impose them.
@Suite struct ParticipantModerationTests: ParticipantFixtures {
    @Test func aBanExitsTheParticipantAndAMuteSilencesThem() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocmod", 3)
            let url = try await api.post("/v3/open_channels", [:], as: cast.session(0)).rawJSON["channel_url"] as? String ?? ""
            let base = "/v3/open_channels/\(url)"
            for index in 1...2 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            let bannedSocket = try await api.events(cast.tokens[cast[1]]!)
            _ = try await bannedSocket.hello()
            // The operator (its creator) bans; a participant cannot.
            #expect(try await api.post("\(base)/ban", ["user_id": cast[2]], as: cast.session(1)).status == 403)
            #expect(try await api.post("\(base)/ban", ["user_id": cast[1], "seconds": 600], as: cast.session(0)).status == 200)
            _ = try await bannedSocket.waitForEvent("user_banned")
            #expect(try await Self.participantIDs(api, url) == [cast[2]])
            let enter = try await api.put("\(base)/enter", [:], as: cast.session(1))
            #expect(try enter.code == 400750)
            let send = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": cast[1], "message": "x"], as: cast.session(1))
            #expect(try send.code == 900100)
            let read = try await api.get("\(base)/messages?message_ts=0&next_limit=5", as: cast.session(1))
            #expect(try read.code == 900100)
            let banned = try await api.get("\(base)/ban").rawJSON["banned_list"] as? [[String: Any]]
            #expect(banned?.count == 1)
            // A mute: the participant stays, is listed as muted, and cannot send.
            let muted = try await api.post("\(base)/mute", ["user_id": cast[2]], as: cast.session(0))
            #expect(muted.status == 200)
            #expect(muted.rawJSON["channel_type"] as? String == "open")
            let participant = try await api.get("\(base)/participants").rawJSON["participants"] as? [[String: Any]]
            #expect(participant?.first?["is_muted"] as? Bool == true)
            let silenced = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": cast[2], "message": "x"], as: cast.session(2))
            #expect(try silenced.code == 900041)
            #expect(try await api.delete("\(base)/mute/\(cast[2])", as: cast.session(0)).status == 200)
            #expect(
                try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": cast[2], "message": "ok"], as: cast.session(2))
                    .status == 201)
            // Operators are not banned by operators; the user's own list shows the open channel.
            #expect(try await api.post("\(base)/operators", ["operator_ids": [cast[2]]], as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/ban", ["user_id": cast[2]], as: cast.session(0)).status == 403)
            let mine = try await api.get("/v3/users/\(cast[1])/ban", as: cast.session(1)).rawJSON["banned_channels"] as? [[String: Any]]
            #expect((mine?.first?["channel"] as? [String: Any])?["channel_type"] as? String == "open")
            bannedSocket.close()
        }
    }

    /// Who may moderate an open channel (API.md §7 on §8): the admin and the channel's operators
    /// (in it or not), never an operator on another operator; everyone else sees the channel, so
    /// is refused with 403 rather than 404; nobody acts for someone else.
    @Test func theOpenChannelModerationMatrix() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocmodz", 5)
            let (op, op2, target) = (cast[0], cast[1], cast[3])
            let url = try await Self.openChannel(api, ["operator_ids": [op, op2]])
            let base = "/v3/open_channels/\(url)"
            for index in 2...3 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            for path in ["ban", "mute"] {
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: .none).status == 401)
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(4)).status == 403, "outsider")
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(2)).status == 403, "participant")
                #expect(try await api.post("\(base)/\(path)", ["user_id": op2], as: cast.session(0)).status == 403, "operator on operator")
                let asOther = try await api.post("\(base)/\(path)", ["user_id": target, "agent_id": op2], as: cast.session(0))
                #expect(asOther.status == 403, "acting for someone else")
                #expect(try await api.get("\(base)/\(path)", as: cast.session(2)).status == 403)
                #expect(try await api.get("\(base)/\(path)", as: cast.session(0)).rawJSON["total_\(path)_count"] as? Int == 0)
                #expect(try await api.post("/v3/open_channels/open_none/\(path)", ["user_id": target]).status == 404)
            }
            // An operator who never entered mutes; the admin bans an operator.
            #expect(try await api.post("\(base)/mute", ["user_id": target, "seconds": 60], as: cast.session(1)).status == 200)
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(3)).rawJSON["is_muted"] as? Bool == true)
            #expect(try await api.post("\(base)/ban", ["user_id": op2]).status == 200)
            let audit = try await api.get("/v3/audit_logs?channel_url=\(url)").rawJSON["audit_logs"] as? [[String: Any]] ?? []
            #expect(Set(audit.compactMap { $0["action"] as? String }).isSuperset(of: ["mute", "ban"]))
        }
    }
}
