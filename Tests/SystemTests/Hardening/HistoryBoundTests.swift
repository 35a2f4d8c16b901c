import Foundation
import Testing

/// Issue 29.1: what one history response may cost. Control characters (each written as a
/// six-byte `\u00XX`) are refused in text, so no stored character grows more than twofold when
/// written; and a history window holds at most `PARLEY_MAX_HISTORY_BYTES` of messages, cut at its
/// far ends, so a client paging on from its last message misses nothing.
@Suite struct HistoryBoundTests {
    @Test func controlCharactersAreRefusedInTextAndData() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ctrl", 1)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let base = "/v3/group_channels/\(channel)/messages"
            for body: [String: Any] in [
                ["message": "a\u{1}b"], ["message": "ok", "data": "\u{7}"], ["message": "ok", "custom_type": "\u{1b}[31m"]
            ] {
                let refused = try await api.post(base, body, as: cast.session(0))
                #expect(try refused.status == 400 && refused.code == 400111, "\(body): \(refused.text)")
            }
            let renamed = try await api.put("/v3/group_channels/\(channel)", ["name": "bell\u{7}"])
            #expect(try renamed.status == 400 && renamed.code == 400111, "\(renamed.text)")
            let upload = try await api.upload(
                channel, ["data": "x\u{1}"], file: FormFile(contentType: "text/plain", bytes: Array("hi".utf8)), as: cast.session(0))
            #expect(try upload.status == 400 && upload.code == 400111, "\(upload.text)")
            // In the path and the query too (a metadata key in the path was stored with U+000F).
            for path in ["/v3/users/\(cast[0])/metadata/a%0Fb", "/v3/users?nickname_startswith=%01"] {
                let refused = try await api.get(path)
                #expect(try refused.status == 400 && refused.code == 400111, "\(path): \(refused.text)")
            }
            let keyed = try await api.put("/v3/users/\(cast[0])/metadata/a%0Fb", ["value": "v"])
            #expect(try keyed.status == 400 && keyed.code == 400111, "\(keyed.text)")
            #expect(try await api.get("/v3/users?nickname_startswith=a%0A").status == 200)
            // Tab, line feed and carriage return are text.
            let fine = try await api.post(base, ["message": "a\tb\nc\r\nd", "data": "{\"k\":\"v\"}\n"], as: cast.session(0))
            #expect(fine.status == 201, "\(fine.text)")
            #expect(try await api.get(base, as: cast.session(0)).rawJSON["messages"] as? [Any] != nil)
            #expect((try await api.get(base, as: cast.session(0)).rawJSON["messages"] as? [[String: Any]])?.count == 1)
        }
    }

    /// A window over the budget is cut at its far ends; paging on from the last message gets the
    /// rest, each message exactly once.
    @Test func aWindowOverTheBudgetIsCutAndPagingMissesNothing() async throws {
        try await TestServer.withAPI({ $0.limits.historyBytes = 100_000 }) { api in
            let cast = try await api.cast("histcut", 1)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let base = "/v3/group_channels/\(channel)/messages"
            var sent: [Int] = []
            for index in 0..<10 {
                let message = try await api.post(
                    base, ["user_id": cast[0], "message": "m\(index)", "data": String(repeating: "x", count: 30_000)])
                sent.append(try #require(message.rawJSON["message_id"] as? Int))
            }
            func window(_ query: String) async throws -> [[String: Any]] {
                try await api.get("\(base)?\(query)", as: cast.session(0)).rawJSON["messages"] as? [[String: Any]] ?? []
            }
            let newest = try await window("message_ts=\(Int64.max)&prev_limit=10&next_limit=0")
            #expect(newest.count == 4, "100 KB holds four messages of 30 KB: \(newest.count)")
            #expect(newest.compactMap { $0["message_id"] as? Int } == Array(sent.suffix(4)), "the end near the anchor is kept")
            var seen = newest.compactMap { $0["message_id"] as? Int }
            var oldest = try #require(newest.first?["created_at"] as? Int)
            var pages = 1
            while pages < 10 {
                let page = try await window("message_ts=\(oldest)&prev_limit=10&next_limit=0&include=false")
                guard let first = page.first?["created_at"] as? Int else { break }
                seen = page.compactMap { $0["message_id"] as? Int } + seen
                oldest = first
                pages += 1
            }
            #expect(seen == sent, "paging back gets every message once: \(seen)")
            // Forward from the start, and both sides of an anchor, share the budget the same way.
            let forward = try await window("message_ts=0&prev_limit=0&next_limit=10")
            #expect(forward.compactMap { $0["message_id"] as? Int } == Array(sent.prefix(4)))
            let middle = try await window("message_id=\(sent[5])&prev_limit=5&next_limit=5")
            #expect(middle.count == 5 && middle.contains { $0["message_id"] as? Int == sent[5] }, "\(middle.count)")
        }
    }
}
