import Foundation
import Testing

/// Polls (API.md §13.4): made, carried by a message into a channel, voted on by its members
/// (each vote replacing the voter's earlier ones), closed, changed by its creator and operators.
@Suite struct PollTests {
    static func counts(_ poll: [String: Any]) -> [Int] {
        (poll["options"] as? [[String: Any]] ?? []).map { $0["vote_count"] as? Int ?? -1 }
    }

    static func optionIDs(_ poll: [String: Any]) -> [Int] {
        (poll["options"] as? [[String: Any]] ?? []).map { $0["id"] as? Int ?? -1 }
    }

    /// A poll by `creator`, carried into `channel` by their message; its JSON.
    static func pollInChannel(
        _ api: API, _ channel: String, by creator: Credential, options: [String] = ["a", "b", "c"], multiple: Bool = false,
        suggestions: Bool = false
    ) async throws -> [String: Any] {
        let made = try await api.post(
            "/v3/polls", ["title": "Lunch?", "options": options, "allow_multiple_votes": multiple, "allow_user_suggestion": suggestions],
            as: creator)
        #expect(made.status == 201, "\(made.text)")
        let pollID = made.rawJSON["id"] as? Int ?? 0
        let sent = try await api.post(
            "/v3/group_channels/\(channel)/messages", ["message": "vote!", "poll_id": pollID], as: creator)
        #expect(sent.status == 201, "\(sent.text)")
        let carried = sent.rawJSON["poll"] as? [String: Any] ?? [:]
        #expect(carried["channel_url"] as? String == channel)
        #expect(carried["message_id"] as? Int == sent.rawJSON["message_id"] as? Int)
        return carried
    }

    @Test func membersVoteEachVoteReplacingTheirOwnUntilItCloses() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("poll", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let made = try await api.post("/v3/polls", ["title": "Lunch?", "options": ["a", "b", "c"]], as: cast.session(0))
            let pollID = made.rawJSON["id"] as? Int ?? 0
            // Before a message carries it, only its creator sees it.
            #expect(try await api.get("/v3/polls/\(pollID)", as: cast.session(1)).code == 400201)
            #expect(try await api.get("/v3/polls/\(pollID)", as: cast.session(0)).status == 200)
            let sent = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message": "vote!", "poll_id": pollID], as: cast.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let options = Self.optionIDs(made.rawJSON)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            let path = "/v3/polls/\(pollID)/vote"
            var voted = try await api.put(path, ["user_id": cast[1], "option_ids": [options[0]]], as: cast.session(1))
            #expect(voted.status == 200, "\(voted.text)")
            #expect(Self.counts(voted.rawJSON) == [1, 0, 0])
            let event = try await socket.waitForEvent("poll_voted")
            #expect(Self.counts(event["data"] as? [String: Any] ?? [:]) == [1, 0, 0])
            voted = try await api.put(path, ["option_ids": [options[1]]], as: cast.session(1))
            #expect(Self.counts(voted.rawJSON) == [0, 1, 0])
            #expect(voted.rawJSON["voter_count"] as? Int == 1)
            let mine = try await api.get("/v3/polls/\(pollID)", as: cast.session(1))
            #expect(mine.rawJSON["voted_option_ids"] as? [Int] == [options[1]])
            voted = try await api.put(path, ["option_ids": []], as: cast.session(1))
            #expect(Self.counts(voted.rawJSON) == [0, 0, 0])
            #expect(voted.rawJSON["voter_count"] as? Int == 0)
            // One option only, of this poll; members only, each for themself.
            #expect(try await api.put(path, ["option_ids": [options[0], options[1]]], as: cast.session(1)).code == 400111)
            #expect(try await api.put(path, ["option_ids": [987_654_321]], as: cast.session(1)).code == 400111)
            // An outsider does not even learn the poll exists.
            #expect(try await api.put(path, ["option_ids": [options[0]]], as: cast.session(2)).code == 400201)
            #expect(try await api.put(path, ["user_id": cast[0], "option_ids": [options[0]]], as: cast.session(1)).code == 400108)
            // Its creator (or an operator, or the admin) closes it; then it takes no votes.
            #expect(try await api.put("/v3/polls/\(pollID)/close", as: cast.session(1)).code == 400108)
            let closed = try await api.put("/v3/polls/\(pollID)/close", as: cast.session(0))
            #expect(closed.rawJSON["status"] as? String == "closed")
            // Closing again changes nothing.
            let again = try await api.put("/v3/polls/\(pollID)/close", as: cast.session(0))
            #expect(again.status == 200 && again.rawJSON["updated_at"] as? Int == closed.rawJSON["updated_at"] as? Int)
            #expect(try await api.put(path, ["option_ids": [options[0]]], as: cast.session(1)).code == 400111)
            // The history's message carries the poll as it is.
            let history = try await api.get(
                "/v3/group_channels/\(channel)/messages?message_ts=0&next_limit=5&prev_limit=0", as: cast.session(1))
            let carried = (history.rawJSON["messages"] as? [[String: Any]])?.first?["poll"] as? [String: Any]
            #expect(carried?["status"] as? String == "closed")
            socket.close()
        }
    }

    @Test func optionsChangeByTheirRules() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pollo", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let open = try await Self.pollInChannel(api, channel, by: cast.session(0), multiple: true, suggestions: true)
            let closedToSuggestions = try await Self.pollInChannel(api, channel, by: cast.session(0))
            let openID = open["id"] as? Int ?? 0
            let added = try await api.post("/v3/polls/\(openID)/options", ["text": "d"], as: cast.session(1))
            #expect(added.status == 200, "\(added.text)")
            #expect((added.rawJSON["options"] as? [[String: Any]])?.last?["created_by"] as? String == cast[1])
            let otherID = closedToSuggestions["id"] as? Int ?? 0
            #expect(try await api.post("/v3/polls/\(otherID)/options", ["text": "d"], as: cast.session(1)).code == 400108)
            // Two voters; deleting the only option one of them chose leaves one voter.
            let options = Self.optionIDs(added.rawJSON)
            _ = try await api.put("/v3/polls/\(openID)/vote", ["option_ids": [options[0]]], as: cast.session(1))
            _ = try await api.put("/v3/polls/\(openID)/vote", ["option_ids": [options[1], options[3]]], as: cast.session(2))
            let voters = try await api.get("/v3/polls/\(openID)/options/\(options[3])/voters", as: cast.session(0))
            #expect((voters.rawJSON["voters"] as? [[String: Any]])?.map { $0["user_id"] as? String } == [cast[2]])
            let trimmed = try await api.delete("/v3/polls/\(openID)/options/\(options[0])", as: cast.session(0))
            #expect(trimmed.status == 200, "\(trimmed.text)")
            #expect(trimmed.rawJSON["voter_count"] as? Int == 1)
            #expect(Self.counts(trimmed.rawJSON) == [1, 0, 1])
            let renamed = try await api.put("/v3/polls/\(openID)/options/\(options[1])", ["text": "B"], as: cast.session(0))
            #expect((renamed.rawJSON["options"] as? [[String: Any]])?.first?["text"] as? String == "B")
            #expect(try await api.get("/v3/polls/\(openID)/options/\(options[1])", as: cast.session(2)).rawJSON["text"] as? String == "B")
            // An option the poll does not have is a resource that is not there.
            let gone = "/v3/polls/\(openID)/options/\(options[0])"
            #expect(try await api.put(gone, ["text": "x"], as: cast.session(0)).code == 400201)
            #expect(try await api.delete(gone, as: cast.session(0)).code == 400201)
            #expect(try await api.get("/v3/polls/\(openID)/options/\(options[0])/voters", as: cast.session(0)).code == 400201)
            #expect(try await api.delete("/v3/polls/\(openID)", as: cast.session(1)).code == 400108)
            #expect(try await api.delete("/v3/polls/\(openID)", as: cast.session(0)).status == 200)
            #expect(try await api.get("/v3/polls/\(openID)", as: cast.session(0)).code == 400201)
        }
    }

    @Test func badPollsAndBadCarriersAreRefused() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pollb", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let other = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let now = Int(Date.now.timeIntervalSince1970 * 1000)
            let refusals: [([String: Any], Int)] = [
                (["options": ["a"]], 400105),
                (["title": "t"], 400105),
                (["title": "t", "options": []], 400111),
                (["title": "t", "options": (0..<21).map { "o\($0)" }], 400111),
                (["title": "t", "options": [""]], 400111),
                (["title": "", "options": ["a"]], 400111),
                (["title": "t", "options": ["a"], "close_at": now - 1_000], 400111),
                (["title": "t", "options": ["a"], "channel_url": channel, "channel_type": "nope"], 400111),
                (["title": "t", "options": "a"], 400102)
            ]
            for (body, code) in refusals {
                #expect(try await api.post("/v3/polls", body, as: cast.session(0)).code == code, "\(body)")
            }
            let messages = "/v3/group_channels/\(channel)/messages"
            #expect(try await api.post(messages, ["message": "p", "poll_id": 987_654_321], as: cast.session(0)).code == 400111)
            let carried = try await Self.pollInChannel(api, channel, by: cast.session(0))
            #expect(
                try await api.post(messages, ["message": "p", "poll_id": carried["id"] as? Int ?? 0], as: cast.session(0)).code == 400111)
            let someoneElses =
                try await api.post("/v3/polls", ["title": "t", "options": ["a"]], as: cast.session(1)).rawJSON["id"] as? Int ?? 0
            #expect(try await api.post(messages, ["message": "p", "poll_id": someoneElses], as: cast.session(0)).code == 400111)
            let forOther =
                try await api.post(
                    "/v3/polls", ["title": "t", "options": ["a"], "channel_url": other], as: cast.session(0)
                ).rawJSON["id"] as? Int ?? 0
            #expect(try await api.post(messages, ["message": "p", "poll_id": forOther], as: cast.session(0)).code == 400111)
        }
    }
}
