import Foundation
import Testing

/// Issue 50.2: every list and window a user can ask for stops at the answer's byte budget
/// (`PARLEY_MAX_RESPONSE_BYTES`, small here), counted as written with everything its items carry
/// (polls, data, last messages), and its page token (or, for a window, its last message) goes on
/// exactly where it stopped: paging through finds every item once.
@Suite struct ResponseBudgetTests {
    static let budget = 150_000
    /// What an answer holds besides its items (the list's key, `next` and its token).
    static let envelope = 2_000
    /// 30,000 quotes: 60,000 bytes written.
    static let bulky = String(repeating: "\"", count: 30_000)

    /// A window of messages carrying large polls is cut to the budget by the answer (the polls
    /// were not counted when the window was read), nearest the anchor first; paging back from its
    /// oldest message gets every message once. Read with the history's own budget, the polls
    /// count there too.
    @Test(arguments: [(read: 1 << 30, written: budget), (read: budget, written: 1 << 30)])
    func aWindowOfMessagesWithPollsStopsNearItsAnchor(_ budgets: (read: Int, written: Int)) async throws {
        try await TestServer.withAPI({ config in
            config.limits.historyBytes = budgets.read
            config.limits.responseBytes = budgets.written
        }) { api in
            let cast = try await api.cast("budgetpoll", 1)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let base = "/v3/group_channels/\(channel)/messages"
            // 20 options of 500 emoji each: about 40 KB a poll.
            let options = (0..<20).map { String(repeating: "😀", count: 499) + String($0 % 10) }
            var sent: [Int] = []
            for index in 0..<12 {
                let poll = try await api.post("/v3/polls", ["title": "poll \(index)", "options": options], as: cast.session(0))
                let message = try await api.post(
                    base, ["message": "m\(index)", "poll_id": poll.rawJSON["id"] as? Int ?? 0], as: cast.session(0))
                sent.append(try #require(message.rawJSON["message_id"] as? Int, "\(message.text)"))
            }
            let newest = try await api.get("\(base)?message_ts=\(Int64.max)&prev_limit=12&next_limit=0", as: cast.session(0))
            let kept = (newest.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message_id"] as? Int }
            // Read to the history's budget, a stored byte may be written twice over (`\"`).
            let bound = budgets.written < budgets.read ? Self.budget + Self.envelope : 2 * Self.budget + Self.envelope
            #expect(newest.text.utf8.count <= bound, "\(newest.text.utf8.count) bytes")
            #expect((2..<12).contains(kept.count), "\(kept.count) messages")
            #expect(kept == Array(sent.suffix(kept.count)), "the messages nearest the anchor")
            var seen = kept
            var oldest = try #require((newest.rawJSON["messages"] as? [[String: Any]])?.first?["created_at"] as? Int)
            while seen.count < sent.count {
                let page = try await api.get("\(base)?message_ts=\(oldest)&prev_limit=12&next_limit=0&include=false", as: cast.session(0))
                let messages = page.rawJSON["messages"] as? [[String: Any]] ?? []
                guard let first = messages.first?["created_at"] as? Int else { break }
                #expect(page.text.utf8.count <= bound)
                seen = messages.compactMap { $0["message_id"] as? Int } + seen
                oldest = first
            }
            #expect(seen == sent, "every message once")
            // Both sides of an anchor keep their nearest.
            let middle = try await api.get("\(base)?message_id=\(sent[6])&prev_limit=6&next_limit=6", as: cast.session(0))
            let around = (middle.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message_id"] as? Int }
            #expect(around.contains(sent[6]) && around.contains(sent[5]), "\(around) around \(sent[6])")
            #expect(around == sent.filter { around.contains($0) } && Set(around).count == around.count)
        }
    }

    /// Each list pages through its items within the budget, missing none.
    @Test func everyListStopsAtTheBudgetAndItsTokenMissesNothing() async throws {
        try await TestServer.withAPI({ config in
            config.limits.responseBytes = Self.budget
            config.limits.messagesPerSecond = 0
        }) { api in
            let cast = try await api.cast("budgetlist", 2)
            let me = cast.session(0)
            let word = "budgetword\(UInt32.random(in: 100_000...999_999))"
            var channels: [String] = []
            for index in 0..<8 {
                channels.append(try await api.createChannel(["user_ids": cast.ids, "name": "c\(index)", "data": Self.bulky], as: me))
            }
            let base = "/v3/group_channels/\(channels[0])/messages"
            var messages: [Int] = []
            var polls: [Int] = []
            var scheduled: [Int] = []
            let later = Int(Date.now.timeIntervalSince1970 * 1000) + 3_600_000
            for index in 0..<8 {
                let sent = try await api.post(base, ["message": "\(word) \(index)", "data": Self.bulky], as: me)
                messages.append(try #require(sent.rawJSON["message_id"] as? Int, "\(sent.text)"))
                let poll = try await api.post("/v3/polls", ["title": "p\(index)", "options": ["a"], "data": Self.bulky], as: me)
                polls.append(try #require(poll.rawJSON["id"] as? Int, "\(poll.text)"))
                let waiting = try await api.post(
                    "/v3/group_channels/\(channels[0])/scheduled_messages",
                    ["message": "later \(index)", "data": Self.bulky, "scheduled_at": later + index], as: me)
                scheduled.append(try #require(waiting.rawJSON["scheduled_message_id"] as? Int, "\(waiting.text)"))
            }
            for id in messages.prefix(6) { #expect(try await api.post("\(base)/\(id)/pin").status == 200) }
            for id in messages { #expect(try await api.put("\(base)/\(id)", ["message": "\(word) edited"], as: me).status == 200) }
            let lists: [(path: String, key: String, id: String, all: [AnyHashable])] = [
                ("/v3/users/\(cast[0])/my_group_channels?limit=100", "channels", "channel_url", channels),
                ("/v3/group_channels?limit=100&channel_urls=\(channels.joined(separator: ","))", "channels", "channel_url", channels),
                ("/v3/polls?limit=100", "polls", "id", polls.reversed()),
                ("/v3/scheduled_messages?limit=100", "scheduled_messages", "scheduled_message_id", scheduled),
                ("/v3/search/messages?query=\(word)&limit=100", "results", "message_id", messages.reversed()),
                ("/v3/search/messages?query=\(word)&limit=100&sort_field=score", "results", "message_id", messages.reversed()),
                (
                    "/v3/group_channels/\(channels[0])/pinned_messages?limit=100", "pinned_messages", "message_id",
                    messages.prefix(6).reversed()
                ),
                ("/v3/users/\(cast[0])/my_group_channels/changelogs?change_ts=0&limit=100", "updated", "channel_url", channels),
                ("/v3/group_channels/\(channels[0])/messages/changelogs?change_ts=0&limit=100", "updated", "message_id", messages)
            ]
            for list in lists {
                var seen: [AnyHashable] = []
                var token = ""
                var pages = 0
                repeat {
                    let separator = list.path.contains("?") ? "&" : "?"
                    let page = try await api.get(list.path + (token.isEmpty ? "" : "\(separator)token=\(token)"), as: me)
                    #expect(page.status == 200, "\(list.path): \(page.text.prefix(300))")
                    let items = page.rawJSON[list.key] as? [[String: Any]] ?? []
                    // Past the budget only with the one item an answer always holds.
                    #expect(
                        page.text.utf8.count <= Self.budget + Self.envelope || items.count == 1,
                        "\(list.path): \(page.text.utf8.count) bytes, \(items.count) items")
                    seen += items.compactMap { $0[list.id] as? AnyHashable }
                    token = page.rawJSON["next"] as? String ?? ""
                    if list.key == "updated" && page.rawJSON["has_more"] as? Bool != true { token = "" }
                    pages += 1
                } while !token.isEmpty && pages < 50
                let sorted = { (ids: [AnyHashable]) in ids.map { "\($0)" }.sorted() }
                #expect(sorted(seen) == sorted(list.all), "\(list.path): every item once")
                #expect(pages >= 3, "\(list.path): cut to the budget (\(pages) pages)")
            }
        }
    }
}
