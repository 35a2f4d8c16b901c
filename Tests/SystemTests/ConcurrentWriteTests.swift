import Foundation
import Testing

/// Bursts of concurrent writes into one channel that must all count, or stop exactly at a limit
/// (API.md §13.2, §13.6). `scripts/test` runs it in the conversation phase, not beside the event
/// stream suites: a hundred requests at once into one in-process server held up the others'
/// event streams (they share the process's threads), and those waited for their frames in vain.
@Suite struct ConcurrentWriteTests: MessageFixtures {
    @Test func concurrentIncreasesAllCount() async throws {
        try await TestServer.withAPI { api in
            let channel = try await api.createChannel(["user_ids": [try await api.cast("mcrace", 1)[0]]])
            let base = "/v3/group_channels/\(channel)/metacounter"
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let path = index % 2 == 0 ? "\(base)/likes" : base
                        let body: [String: Any] =
                            index % 2 == 0 ? ["value": 1, "mode": "increase"] : ["metacounter": ["likes": 1], "mode": "increase"]
                        return try await api.put(path, body).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(try await api.get("\(base)/likes").decode([String: Int64].self) == ["likes": 100])
        }
    }

    @Test func atMostTheLimitArePinnedAlsoWhenPinnedAtOnce() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pinmax", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let ids = try await sendMany(api, channel, 12, as: cast.session(0))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in ids {
                    group.addTask { try await api.post("/v3/group_channels/\(channel)/messages/\(id)/pin").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 2, "\(statuses)")
            #expect(PinnedMessageTests.pins(try await api.get("/v3/group_channels/\(channel)")).ids.count == 10)
        }
    }
}
