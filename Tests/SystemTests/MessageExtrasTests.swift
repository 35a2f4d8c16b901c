import Foundation
import Testing

/// API.md §4.2 flood protection, §4.5 meta arrays, §4.6 reactions.
@Suite struct FloodProtectionTests {
    @Test func moreThanFivePerSecondIs429AcrossInstancesAndTheAdminIsExempt() async throws {
        // Both instances read one manual clock: all sends fall in one window until it moves.
        let time = ManualClock(1_900_000_000_000)
        try await TestServer.withAPI({ $0.limits.messagesPerSecond = 5 }, clock: time.clock) { first in
            try await TestServer.withAPI({ $0.limits.messagesPerSecond = 5 }, clock: time.clock) { second in
                let users = try await first.cast("flood", 1)
                let url = try await first.createChannel(["user_ids": [users[0]]])
                let path = "/v3/group_channels/\(url)/messages"
                var statuses: [Int] = []
                var retryAfter: String?
                for index in 0..<7 {
                    let api = index % 2 == 0 ? first : second
                    let response = try await api.post(path, ["message": "m\(index)"], as: users.session(0))
                    statuses.append(response.status)
                    if response.status == 429 {
                        #expect(try response.code == 500910)
                        retryAfter = response.headers[.retryAfter]
                    }
                }
                #expect(statuses == [201, 201, 201, 201, 201, 429, 429])
                #expect(retryAfter == "1")
                #expect(try await first.post(path, ["message": "admin", "user_id": users[0]]).status == 201)
                time.advance(by: 1000)
                #expect(try await second.post(path, ["message": "later"], as: users.session(0)).status == 201)
                #expect(try await first.get("\(path)/total_count").decode(TotalCountBody.self).total == 7)
            }
        }
    }
}

extension FloodProtectionTests {
    /// Calendar-second counters let 2× the limit through a second boundary; the window slides.
    @Test func theWindowSlidesAcrossSecondBoundaries() async throws {
        let start: Int64 = 1_910_000_000_500
        let time = ManualClock(start)
        try await TestServer.withAPI({ $0.limits.messagesPerSecond = 5 }, clock: time.clock) { first in
            try await TestServer.withAPI({ $0.limits.messagesPerSecond = 5 }, clock: time.clock) { second in
                let users = try await first.cast("slide", 1)
                let url = try await first.createChannel(["user_ids": [users[0]]])
                let path = "/v3/group_channels/\(url)/messages"
                var accepted: [Int64] = []
                // Ten sends 100 ms apart from x.500 to x+1.400, then ten more: alternating instances.
                for index in 0..<20 {
                    let api = index % 2 == 0 ? first : second
                    let response = try await api.post(path, ["message": "m\(index)"], as: users.session(0))
                    if response.status == 201 {
                        accepted.append(time.clock.nowMillis)
                    } else {
                        #expect(response.status == 429, "\(response.text)")
                    }
                    time.advance(by: 100)
                }
                // The first five pass; the calendar boundary (offset 500) resets nothing: the next
                // passes at offset 1000, when the first has left the window, and so on.
                #expect(accepted.map { $0 - start } == [0, 100, 200, 300, 400, 1000, 1100, 1200, 1300, 1400])
                for (index, at) in accepted.enumerated() {
                    let inWindow = accepted[index...].prefix { $0 < at + 1000 }.count
                    #expect(inWindow <= 5, "\(inWindow) sends in the second from \(at - start) ms")
                }
            }
        }
    }
}

@Suite struct ReactionTests {
    @Test func membersReactAndUnreactAndEveryoneSeesIt() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("react", 3)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]], "is_public": true])
            let sent = try await api.post("/v3/group_channels/\(url)/messages", ["message": "hi"], as: users.session(0))
            let id = try sent.decode(MessageBody.self).messageID
            let path = "/v3/group_channels/\(url)/messages/\(id)/reactions"
            let added = try await api.post(path, ["reaction": "👍"], as: users.session(1))
            #expect(added.status == 200)
            #expect(try added.decode(ReactionChangeBody.self).operation == "ADD")
            #expect(try await api.post(path, ["reaction": "👍"], as: users.session(0)).status == 200)
            #expect(try await api.post(path, ["reaction": "👍"], as: users.session(0)).status == 200, "adding twice is harmless")
            #expect(try await api.post(path, ["reaction": "❤️"], as: users.session(1)).status == 200)
            let reactions = try await api.get(path, as: users.session(0)).decode(ReactionList.self).items
            #expect(reactions.map(\.key) == ["👍", "❤️"])
            #expect(reactions.first?.userIDs == [users[1], users[0]])
            let message = try await api.get("/v3/group_channels/\(url)/messages/\(id)")
            #expect(try message.decode(MessageBody.self).reactions.count == 2)
            #expect(try await api.delete("\(path)?reaction=%F0%9F%91%8D", as: users.session(1)).status == 200)
            #expect(try await api.delete("\(path)?reaction=%F0%9F%91%8D", as: users.session(1)).status == 404)
            #expect(try await api.post(path, ["reaction": "x"], as: users.session(2)).status == 403)
            #expect(try await api.post(path, ["reaction": "x", "user_id": users[0]], as: users.session(1)).status == 403)
            #expect(try await api.post(path, ["reaction": String(repeating: "r", count: 129)], as: users.session(1)).code == 400110)
            #expect(try await api.post(path, [:], as: users.session(1)).code == 400105)
            #expect(try await api.get(path, as: users.session(2)).status == 403)
        }
    }
}

@Suite struct MetaArrayTests {
    @Test func keysAndValuesAreAddedRemovedAndLimited() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("metaarray", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let sent = try await api.post(
                "/v3/group_channels/\(url)/messages",
                [
                    "message": "hi", "sorted_metaarray": [["key": "a", "value": ["1"]]]
                ], as: users.session(0))
            let id = try sent.decode(MessageBody.self).messageID
            let path = "/v3/group_channels/\(url)/messages/\(id)/sorted_metaarray"
            func entries(_ response: APIResponse) throws -> [String: [String]] {
                try response.decode(MessageBody.self).metaarray
            }
            let added = try await api.post(path, ["sorted_metaarray": [["key": "b", "value": ["x", "y"]]]], as: users.session(0))
            #expect(try entries(added) == ["a": ["1"], "b": ["x", "y"]])
            let more = try await api.put(path, ["sorted_metaarray": [["key": "a", "value": ["2"]]], "mode": "add"], as: users.session(0))
            #expect(try entries(more) == ["a": ["1", "2"], "b": ["x", "y"]])
            let fewer = try await api.put(path, ["sorted_metaarray": [["key": "b", "value": ["x"]]], "mode": "remove"])
            #expect(try entries(fewer) == ["a": ["1", "2"], "b": ["y"]])
            let strict = try await api.put(
                path, ["sorted_metaarray": [["key": "c", "value": ["z"]]], "upsert": false], as: users.session(0))
            #expect(try strict.code == 400201)
            let removed = try await api.delete("\(path)?metaarray_keys=a", as: users.session(0))
            #expect(try entries(removed) == ["b": ["y"]])
            #expect(try await api.post(path, ["sorted_metaarray": [["key": "z", "value": ["1"]]]], as: users.session(1)).status == 403)
            let many = (0..<20).map { ["key": "k\($0)", "value": ["v"]] as [String: any Sendable] }
            #expect(try await api.post(path, ["sorted_metaarray": many]).code == 400203)
            #expect(try await api.put(path, ["sorted_metaarray": [["key": "b", "value": ["v"]]], "mode": "sideways"]).code == 400111)
            #expect(try entries(try await api.get("/v3/group_channels/\(url)/messages/\(id)")) == ["b": ["y"]])
        }
    }
}
