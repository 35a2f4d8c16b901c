import Foundation
import Testing

/// Bursts of concurrent writes into one channel that must all count, or stop exactly at a limit
/// (API.md §13.1, §13.2, §13.4, §13.6). `scripts/test` runs it in the conversation phase, not beside the event
/// stream suites: a hundred requests at once into one in-process server held up the others'
/// event streams (they share the process's threads), and those waited for their frames in vain.
@Suite struct ConcurrentWriteTests: MessageFixtures {
    @Test func concurrentIncreasesAllCount() async throws {
        try await TestServer.withAPI { api in
            let channel = try await api.createChannel(["user_ids": [try await api.cast("mcrace", 1)[0]]])
            let base = "/v3/group_channels/\(channel)/metacounter"
            let statuses = try await api.burst(100) { client, index in
                let path = index % 2 == 0 ? "\(base)/likes" : base
                let body: [String: Any] =
                    index % 2 == 0 ? ["value": 1, "mode": "increase"] : ["metacounter": ["likes": 1], "mode": "increase"]
                return try await client.put(path, body).status
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(try await api.get("\(base)/likes").decode([String: Int64].self) == ["likes": 100])
        }
    }

    /// Replies and deletions of replies at once: the parent's `thread_info` is exactly what the
    /// thread holds afterwards (API.md §13.1).
    @Test func concurrentRepliesAndDeletesKeepTheThreadExact() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thrace", 5)
            let channel = try await api.createChannel(["user_ids": (0..<5).map { cast[$0] }])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let path = "/v3/group_channels/\(channel)/messages"
            var early: [Int] = []
            for index in 0..<30 {
                early.append(
                    try await ThreadTests.reply(api, channel, to: parent, "e\(index)", as: cast.session(index % 5))["message_id"] as! Int)
            }
            let statuses = try await Self.replyBurst(
                api, path, parent: parent, senders: (0..<3).map { cast.session($0) }, deleting: Array(early.prefix(20)))
            #expect(statuses.filter { $0 == 201 }.count == 100, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count == 20, "\(statuses)")
            let listed = try await api.get("\(path)/\(parent)/thread?message_ts=0&next_limit=200&prev_limit=0")
            let replies = listed.rawJSON["messages"] as? [[String: Any]] ?? []
            #expect(replies.count == 110)
            let thread = ThreadTests.threadInfo(listed.rawJSON["parent_message"] as? [String: Any])
            #expect(thread["reply_count"] as? Int == replies.count)
            #expect(thread["last_replied_at"] as? Int == replies.compactMap { $0["created_at"] as? Int }.max())
            let counts = Dictionary(replies.map { (($0["user"] as? [String: Any])?["user_id"] as? String ?? "", 1) }, uniquingKeysWith: +)
            let most = (thread["most_replies"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? String }
            #expect(Set(most) == Set(counts.keys))
            #expect(most.map { counts[$0] ?? 0 } == most.map { counts[$0] ?? 0 }.sorted(by: >), "\(most) \(counts)")
        }
    }

    /// A thread of ten thousand replies (sent sixteen at a time), then a hundred more and twenty
    /// deletions at once: `reply_count`, `most_replies` and `last_replied_at` are exactly what the
    /// thread listing pages through, and the channel's history holds the parent alone.
    @Test func aThreadOfTenThousandRepliesStaysExact() async throws {
        // The test's own connection waits idle while sixteen others send: past the idle timeout.
        try await TestServer.withAPI({ config in
            config.limits.messagesPerSecond = 0
            config.httpTimeouts.idle = .seconds(600)
        }) { api in
            let cast = try await api.cast("thbig", 12)
            let channel = try await api.createChannel(["user_ids": (0..<12).map { cast[$0] }])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let path = "/v3/group_channels/\(channel)/messages"
            // Sender k of 12 sends a share growing with k: the ten with the most are 2…11, in that order.
            let senders = (0..<12).flatMap { k in Array(repeating: k, count: k + 1) }
            let sent = try await api.withConnections(16) { clients in
                try await withThrowingTaskGroup(of: [Int].self) { group in
                    for worker in 0..<16 {
                        group.addTask {
                            var ids: [Int] = []
                            for index in stride(from: worker, to: 10_000, by: 16) {
                                let reply = try await ThreadTests.reply(
                                    clients[worker], channel, to: parent, "r\(index)", as: cast.session(senders[index % senders.count]))
                                ids.append(reply["message_id"] as? Int ?? -1)
                            }
                            return ids
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0 += $1 }
                }
            }
            #expect(sent.count == 10_000 && !sent.contains(-1))
            let statuses = try await Self.replyBurst(
                api, path, parent: parent, senders: (0..<3).map { cast.session($0) }, deleting: Array(sent.sorted().suffix(20)))
            #expect(statuses.filter { $0 == 201 }.count == 100 && statuses.filter { $0 == 200 }.count == 20, "\(statuses)")
            let (thread, replies) = try await Self.wholeThread(api, path, parent: parent)
            #expect(replies.count == 10_080)
            #expect(Set(replies.compactMap { $0["message_id"] as? Int }).count == 10_080)
            #expect(thread["reply_count"] as? Int == 10_080)
            #expect(thread["last_replied_at"] as? Int == replies.compactMap { $0["created_at"] as? Int }.max())
            let counts = Dictionary(replies.map { (($0["user"] as? [String: Any])?["user_id"] as? String ?? "", 1) }, uniquingKeysWith: +)
            let ranked = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10).map(\.key)
            let most = (thread["most_replies"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? String }
            #expect(most.count == 10)
            #expect(most.map { counts[$0] ?? 0 } == ranked.map { counts[$0] ?? 0 }, "\(most) \(counts)")
            let history = try await api.get("\(path)?message_ts=0&next_limit=200&prev_limit=0").rawJSON
            #expect((history["messages"] as? [[String: Any]])?.compactMap { $0["message_id"] as? Int } == [parent])
        }
    }

    /// Issue 50.6: concurrent deletions of a thread's newest replies, of twenty repliers with
    /// different counts: each deletion counts its replier's rows after the others' (the parent is
    /// locked first), so `most_replies` stays ranked and `last_replied_at` names a reply that is
    /// still there, round after round.
    @Test func concurrentDeletesOfTheNewestRepliesKeepTheRankingExact() async throws {
        try await TestServer.withAPI({ $0.limits.messagesPerSecond = 0 }) { api in
            let cast = try await api.cast("thdel", 20)
            let channel = try await api.createChannel(["user_ids": (0..<20).map { cast[$0] }])
            let parent = try await sendMany(api, channel, 1, as: cast.session(0))[0]
            let path = "/v3/group_channels/\(channel)/messages"
            // Replier k has k + 1 replies, interleaved, so the newest are of many repliers.
            let order = (0..<20).flatMap { k in Array(repeating: k, count: k + 1) }.enumerated()
                .sorted { ($0.offset * 7919) % 211 < ($1.offset * 7919) % 211 }.map(\.element)
            var sent: [Int] = []
            for (index, k) in order.enumerated() {
                sent.append(try await ThreadTests.reply(api, channel, to: parent, "r\(index)", as: cast.session(k))["message_id"] as! Int)
            }
            for round in 0..<6 {
                let doomed = Array(sent.suffix(7))
                sent.removeLast(7)
                let statuses = try await api.burst(doomed.count) { client, index in
                    try await client.delete("\(path)/\(doomed[index])").status
                }
                #expect(statuses == Array(repeating: 200, count: 7), "round \(round): \(statuses)")
                let (thread, replies) = try await Self.wholeThread(api, path, parent: parent)
                #expect(replies.count == sent.count)
                #expect(thread["reply_count"] as? Int == replies.count, "round \(round)")
                #expect(
                    thread["last_replied_at"] as? Int == replies.compactMap { $0["created_at"] as? Int }.max(),
                    "round \(round): last_replied_at names a deleted reply")
                let counts = Dictionary(
                    replies.map { (($0["user"] as? [String: Any])?["user_id"] as? String ?? "", 1) }, uniquingKeysWith: +)
                let most = (thread["most_replies"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? String }
                let ranked = counts.values.sorted(by: >).prefix(most.count)
                #expect(most.map { counts[$0] ?? 0 } == Array(ranked), "round \(round): \(most.map { counts[$0] ?? 0 })")
            }
        }
    }

    /// Fifty members vote at once, then all change their votes at once: the counts are exact.
    @Test func concurrentVotesCountExactly() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pollrace", 50)
            let channel = try await api.createChannel(["user_ids": (0..<50).map { cast[$0] }])
            let poll = try await PollTests.pollInChannel(api, channel, by: cast.session(0))
            let (pollID, options) = (poll["id"] as? Int ?? 0, PollTests.optionIDs(poll))
            let voters = (0..<50).map { cast.session($0) }
            let first = try await Self.voteBurst(api, pollID, voters) { [options[$0 % 3]] }
            #expect(first.allSatisfy { $0 == 200 }, "\(first)")
            var shown = try await api.get("/v3/polls/\(pollID)").rawJSON
            #expect(PollTests.counts(shown) == [17, 17, 16])
            #expect(shown["voter_count"] as? Int == 50)
            let second = try await Self.voteBurst(api, pollID, voters) { $0 % 5 == 0 ? [] : [options[0]] }
            #expect(second.allSatisfy { $0 == 200 }, "\(second)")
            shown = try await api.get("/v3/polls/\(pollID)").rawJSON
            #expect(PollTests.counts(shown) == [40, 0, 0])
            #expect(shown["voter_count"] as? Int == 40)
        }
    }

    static func voteBurst(_ api: API, _ pollID: Int, _ voters: [Credential], _ choice: @escaping @Sendable (Int) -> [Int]) async throws
        -> [Int]
    {
        try await api.burst(voters.count) { client, index in
            try await client.put("/v3/polls/\(pollID)/vote", ["option_ids": choice(index)], as: voters[index]).status
        }
    }

    /// The parent's `thread_info` and every reply of its thread, paged through.
    static func wholeThread(_ api: API, _ path: String, parent: Int) async throws -> (thread: [String: Any], replies: [[String: Any]]) {
        var replies: [[String: Any]] = []
        var page = try await api.get("\(path)/\(parent)/thread?message_ts=0&next_limit=200&prev_limit=0").rawJSON
        let thread = ThreadTests.threadInfo(page["parent_message"] as? [String: Any])
        while let messages = page["messages"] as? [[String: Any]], let last = messages.last?["message_id"] as? Int {
            replies += messages
            page = try await api.get("\(path)/\(parent)/thread?message_id=\(last)&include=false&next_limit=200&prev_limit=0").rawJSON
        }
        return (thread, replies)
    }

    /// A hundred replies to `parent` and the deletion of `deleting`, all at once; their statuses.
    static func replyBurst(_ api: API, _ path: String, parent: Int, senders: [Credential], deleting: [Int]) async throws -> [Int] {
        try await api.burst(100 + deleting.count) { client, index in
            guard index < 100 else { return try await client.delete("\(path)/\(deleting[index - 100])").status }
            return try await client.post(path, ["message": "c\(index)", "parent_message_id": parent], as: senders[index % senders.count])
                .status
        }
    }

    @Test func atMostTheLimitArePinnedAlsoWhenPinnedAtOnce() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinmax", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let ids = try await sendMany(api, channel, 12, as: cast.session(0))
            let statuses = try await api.burst(ids.count) { client, index in
                try await client.post("/v3/group_channels/\(channel)/messages/\(ids[index])/pin").status
            }
            #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 2, "\(statuses)")
            #expect(PinnedMessageTests.pins(try await api.get("/v3/group_channels/\(channel)")).ids.count == 10)
        }
    }
}
