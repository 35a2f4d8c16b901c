import Foundation
import Testing

/// Issue 29.8–29.12: what mute, freeze, bans, blocks and membership must hold, through HTTP and
/// the event stream.
@Suite struct ModerationHoleTests: ParticipantFixtures {
    /// 29.9: a muted member puts nothing new in front of the others (edit, reaction, meta array,
    /// typing; issue 50.5: a poll for the channel, a vote, a suggested option); in a frozen
    /// channel only operators and the admin do. Taking away stays allowed.
    @Test func muteAndFreezeCoverEveryContribution() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holemute", 3)
            let (op, member) = (cast[0], cast[1])
            let channel = try await api.createChannel(["user_ids": [op, member, cast[2]], "operator_ids": [op]])
            let base = "/v3/group_channels/\(channel)"
            let sent = try await api.post("\(base)/messages", ["message": "mine"], as: cast.session(1))
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            #expect(try await api.post("\(base)/messages/\(id)/reactions", ["reaction": "ok"], as: cast.session(1)).status == 200)
            let poll = try await PollTests.pollInChannel(api, channel, by: cast.session(0), suggestions: true)
            let (pollID, options) = (poll["id"] as? Int ?? 0, PollTests.optionIDs(poll))
            #expect(try await api.put("/v3/polls/\(pollID)/vote", ["option_ids": [options[0]]], as: cast.session(1)).status == 200)

            func contributions(_ credential: Credential) async throws -> [String: APIResponse] {
                [
                    "edit": try await api.put("\(base)/messages/\(id)", ["message": "changed"], as: credential),
                    "reaction": try await api.post("\(base)/messages/\(id)/reactions", ["reaction": "new"], as: credential),
                    "metaarray": try await api.post(
                        "\(base)/messages/\(id)/sorted_metaarray", ["sorted_metaarray": [["key": "k", "value": ["v"]]]], as: credential),
                    "typing": try await api.post("\(base)/typing", [:], as: credential),
                    "poll": try await api.post(
                        "/v3/polls", ["title": "Mine?", "options": ["x"], "channel_url": channel, "channel_type": "group"], as: credential),
                    "vote": try await api.put("/v3/polls/\(pollID)/vote", ["option_ids": [options[1]]], as: credential),
                    "suggestion": try await api.post("/v3/polls/\(pollID)/options", ["text": "mine"], as: credential)
                ]
            }

            #expect(try await api.post("\(base)/mute", ["user_id": member], as: cast.session(0)).status == 200)
            for (what, answer) in try await contributions(cast.session(1)) {
                #expect(answer.status == 403, "muted \(what): \(answer.text)")
                #expect(try answer.code == 900041, "muted \(what)")
            }
            let unchanged = try await api.get("\(base)/messages/\(id)", as: cast.session(2))
            #expect(unchanged.rawJSON["message"] as? String == "mine")
            #expect((unchanged.rawJSON["sorted_metaarray"] as? [Any])?.isEmpty == true)
            let pollNow = try await api.get("/v3/polls/\(pollID)", as: cast.session(2)).rawJSON
            #expect(PollTests.counts(pollNow) == [1, 0, 0], "the muted member's vote stands as it was, no option added")
            // Taking away shows nothing new.
            #expect(try await api.put("/v3/polls/\(pollID)/vote", ["option_ids": []], as: cast.session(1)).status == 200)
            #expect(try await api.delete("\(base)/messages/\(id)/reactions?reaction=ok", as: cast.session(1)).status == 200)
            #expect(try await api.delete("\(base)/typing", as: cast.session(1)).status == 200)
            #expect(try await api.delete("\(base)/mute/\(member)", as: cast.session(0)).status == 200)

            #expect(try await api.put("\(base)/freeze", ["freeze": true], as: cast.session(0)).status == 200)
            for (what, answer) in try await contributions(cast.session(1)) {
                #expect(answer.status == 403, "frozen \(what): \(answer.text)")
                #expect(try answer.code == 900050, "frozen \(what)")
            }
            // The operator and the admin are exempt.
            let byOperator = try await api.put("\(base)/messages/\(id)", ["message": "by the operator"], as: cast.session(0))
            #expect(byOperator.status == 200, "\(byOperator.text)")
            #expect(try await api.post("\(base)/typing", [:], as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/messages/\(id)/reactions", ["user_id": member, "reaction": "admin"]).status == 200)
        }
    }

    /// 29.9 in open channels: a frozen open channel takes no participant's edits or reactions.
    @Test func aFrozenOpenChannelTakesNoParticipantsEditsOrReactions() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holeopen", 1)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let id = try #require(
                try await api.post("\(base)/messages", ["message": "hi"], as: cast.session(0)).rawJSON["message_id"] as? Int)
            #expect(try await api.put("\(base)/freeze", ["freeze": true]).status == 200)
            let edit = try await api.put("\(base)/messages/\(id)", ["message": "edited"], as: cast.session(0))
            #expect(try edit.status == 403 && edit.code == 900050, "\(edit.text)")
            let react = try await api.post("\(base)/messages/\(id)/reactions", ["reaction": "x"], as: cast.session(0))
            #expect(try react.status == 403 && react.code == 900050, "\(react.text)")
            #expect(try await api.get("\(base)/messages/\(id)").rawJSON["message"] as? String == "hi")
        }
    }

    /// 29.10: an operator may give up their own role, never take another operator's; the admin may.
    @Test func anOperatorCannotRemoveAnotherOperator() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holeop", 3)
            let channel = try await api.createChannel(["user_ids": cast.ids, "operator_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/operators"
            let other = try await api.delete("\(base)?operator_ids=\(cast[1])", as: cast.session(0))
            #expect(other.status == 403, "\(other.text)")
            #expect(try await api.post("/v3/group_channels/\(channel)/ban", ["user_id": cast[1]], as: cast.session(0)).status == 403)
            let operators = try await api.get(base).rawJSON["operators"] as? [[String: Any]]
            #expect(Set(operators?.compactMap { $0["user_id"] as? String } ?? []) == [cast[0], cast[1]])
            // Naming a member who is no operator changes nothing and is no attempt on an operator.
            #expect(try await api.delete("\(base)?operator_ids=\(cast[2])", as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)?operator_ids=\(cast[0])", as: cast.session(0)).status == 200, "giving up one's own")
            #expect(try await api.delete("\(base)?operator_ids=\(cast[1])").status == 200, "the admin")

            let open = try await Self.openChannel(api, ["operator_ids": [cast[0], cast[1]]])
            let openBase = "/v3/open_channels/\(open)/operators"
            #expect(try await api.delete("\(openBase)?operator_ids=\(cast[1])", as: cast.session(0)).status == 403)
            #expect(try await api.delete("\(openBase)?operator_ids=\(cast[0])", as: cast.session(0)).status == 200)
        }
    }

    /// 29.11: a user banned from an open channel reads nothing of it: reactions, participants,
    /// metadata (history already answered 900100).
    @Test func aUserBannedFromAnOpenChannelReadsNothingOfIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holeban", 2)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let id = try #require(
                try await api.post("\(base)/messages", ["message": "hi"], as: cast.session(0)).rawJSON["message_id"] as? Int)
            #expect(try await api.post("\(base)/metadata", ["metadata": ["topic": "x"]]).status == 201)
            #expect(try await api.post("\(base)/ban", ["user_id": cast[1]]).status == 200)
            for path in ["messages/\(id)/reactions", "participants", "metadata", "metadata/topic", "messages"] {
                let answer = try await api.get("\(base)/\(path)", as: cast.session(1))
                #expect(try answer.status == 403 && answer.code == 900100, "\(path): \(answer.status) \(answer.text)")
                #expect(try await api.get("\(base)/\(path)", as: cast.session(0)).status == 200, "\(path) for a participant")
            }
        }
    }

    /// 29.12: who is in a public channel is public; what members do in it (receipts, mutes) is
    /// for its joined members; its metadata is not for someone merely invited.
    @Test func visitorsAndInviteesSeeNoMembersActivity() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holevisit", 4)
            let (op, member, visitor, invitee) = (cast[0], cast[1], cast[2], cast[3])
            #expect(try await api.put("/v3/users/\(invitee)/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let channel = try await api.createChannel([
                "user_ids": [op, member], "operator_ids": [op], "is_public": true, "access_code": "secret-code"
            ])
            let base = "/v3/group_channels/\(channel)"
            #expect(try await api.post("\(base)/invite", ["user_ids": [invitee]], as: cast.session(0)).status == 200)
            _ = try await api.post("\(base)/messages", ["message": "hello"], as: cast.session(1))
            #expect(try await api.put("\(base)/messages/mark_as_read", [:], as: cast.session(1)).status == 200)
            #expect(try await api.post("\(base)/mute", ["user_id": member, "seconds": 600], as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/metadata", ["metadata": ["plan": "private"]], as: cast.session(0)).status == 201)
            let private_ = ["read_ts", "delivered_ts", "is_muted", "muted_end_at"]

            for (who, credential) in [("visitor", cast.session(2)), ("invitee", cast.session(3))] {
                let members = try await api.get("\(base)/members?limit=10", as: credential)
                #expect(members.status == 200, "\(who): \(members.text)")
                let listed = members.rawJSON["members"] as? [[String: Any]] ?? []
                #expect(listed.count == 3, "\(who) still sees who is in it")
                for entry in listed {
                    #expect(private_.allSatisfy { entry[$0] == nil }, "\(who): \(entry)")
                }
                let muted = try await api.get("\(base)/members?muted_member_filter=muted", as: credential)
                #expect(muted.status == 403, "\(who) filtering on mutes")
                let view = try await api.get("\(base)?show_member=true&show_read_receipt=true&show_delivery_receipt=true", as: credential)
                #expect(view.status == 200)
                #expect(view.rawJSON["read_receipt"] == nil && view.rawJSON["delivery_receipt"] == nil, "\(who): \(view.text)")
                for entry in view.rawJSON["members"] as? [[String: Any]] ?? [] {
                    #expect(private_.allSatisfy { entry[$0] == nil }, "\(who): \(entry)")
                }
                let metadata = try await api.get("\(base)/metadata", as: credential)
                #expect(metadata.status == 403, "\(who) reading metadata: \(metadata.text)")
            }
            // Joined members still see all of it.
            let asMember = try await api.get("\(base)/members?limit=10", as: cast.session(0)).rawJSON["members"] as? [[String: Any]] ?? []
            let muted = try #require(asMember.first { $0["user_id"] as? String == member })
            #expect(muted["is_muted"] as? Bool == true && (muted["read_ts"] as? Int ?? 0) > 0)
            let receipts = try await api.get("\(base)?show_read_receipt=true", as: cast.session(0)).rawJSON["read_receipt"]
            #expect((receipts as? [String: Any])?[member] != nil)
            #expect(try await api.get("\(base)/metadata", as: cast.session(1)).status == 200)
            _ = visitor
        }
    }

    /// 29.8: what a blocked user types never reaches the blocker (here in a 1-to-1 channel).
    @Test func aBlockedUsersTypingDoesNotReachTheBlocker() async throws {
        try await TestServer.withAPI({ $0.events.typingThrottle = .milliseconds(50) }) { api in
            let cast = try await api.cast("holetype", 2)
            let (typist, blocker) = (cast[0], cast[1])
            let channel = try await api.createChannel(["user_ids": [typist, blocker], "is_distinct": true])
            let blockerSocket = try await api.events(cast.tokens[blocker]!)
            let typistSocket = try await api.events(cast.tokens[typist]!)
            let path = "/v3/group_channels/\(channel)/typing"
            // Before the block it arrives; after it, not (the typist's own socket still hears it).
            #expect(try await api.post(path, [:], as: cast.session(0)).status == 200)
            _ = try await blockerSocket.waitForEvent("typing_started")
            #expect(try await api.delete(path, as: cast.session(0)).status == 200)
            _ = try await blockerSocket.waitForEvent("typing_ended")
            #expect(try await api.post("/v3/users/\(blocker)/block", ["target_id": typist], as: cast.session(1)).status == 200)
            #expect(try await api.post(path, [:], as: cast.session(0)).status == 200)
            _ = try await typistSocket.waitFor {
                $0["type"] as? String == "typing_started"
                    && typistSocket.frames.filter { $0["type"] as? String == "typing_started" }.count == 2
            }
            // The blocker's own typing still reaches the typist, so the stream is live: after it,
            // the blocker has seen exactly the first start.
            #expect(try await api.post(path, [:], as: cast.session(1)).status == 200)
            _ = try await blockerSocket.waitFor {
                ($0["data"] as? [String: Any]).flatMap { ($0["user"] as? [String: Any])?["user_id"] as? String } == blocker
            }
            let starts = blockerSocket.frames.filter {
                $0["type"] as? String == "typing_started"
                    && (($0["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == typist
            }
            #expect(starts.count == 1, "\(blockerSocket.frames)")
            blockerSocket.close()
            typistSocket.close()
        }
    }

    /// 29.12: with `PARLEY_SESSION_CHANNEL_URLS=false`, a session user learns nothing about a
    /// private channel from its URL: a chosen URL is refused alike, taken or free. By default (the
    /// seeds let clients choose URLs) a taken URL is 409, which docs/CONFIGURATION.md states.
    @Test func generatedChannelURLsTellNothingAboutPrivateChannels() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("holeurl", 2)
            _ = try await api.createChannel(["user_ids": [cast[0]], "channel_url": "holeurl-secret"])
            let taken = try await api.post(
                "/v3/group_channels", ["user_ids": [cast[1]], "channel_url": "holeurl-secret"], as: cast.session(1))
            #expect(taken.status == 409)
            let chosen = try await api.post(
                "/v3/group_channels", ["user_ids": [cast[1]], "channel_url": "holeurl-mine"], as: cast.session(1))
            #expect(chosen.status == 201 && chosen.rawJSON["channel_url"] as? String == "holeurl-mine")
        }
        try await TestServer.withAPI({ $0.sessionUsersChooseChannelURLs = false }) { api in
            let cast = try await api.cast("holegen", 2)
            _ = try await api.createChannel(["user_ids": [cast[0]], "channel_url": "holegen-secret"])
            var answers: [String] = []
            for url in ["holegen-secret", "holegen-free"] {
                let answer = try await api.post("/v3/group_channels", ["user_ids": [cast[1]], "channel_url": url], as: cast.session(1))
                #expect(answer.status == 403, "\(url): \(answer.text)")
                answers.append(answer.text)
            }
            #expect(answers[0] == answers[1])
            #expect(try await api.get("/v3/group_channels/holegen-free").status == 404)
            let generated = try await api.post("/v3/group_channels", ["user_ids": [cast[1]]], as: cast.session(1))
            #expect(generated.status == 201 && (generated.rawJSON["channel_url"] as? String)?.hasPrefix("group_") == true)
            #expect(try await api.createChannel(["user_ids": [cast[1]], "channel_url": "holegen-admin"]) == "holegen-admin")
        }
    }
}
