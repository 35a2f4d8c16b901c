import Foundation
import Testing

/// `/v3/{channel_type}/{channel_url}/metacounter[/{key}]` (API.md §13.6).
@Suite struct MetacounterTests {
    @Test func createReadWriteInEveryModeAndDelete() async throws {
        try await TestServer.withAPI { api in
            let channel = try await api.createChannel(["user_ids": [try await api.cast("mc", 1)[0]]])
            let base = "/v3/group_channels/\(channel)/metacounter"
            let created = try await api.post(base, ["metacounter": ["likes": 3, "views": 10]])
            #expect(created.status == 201)
            #expect(try created.decode([String: Int64].self) == ["likes": 3, "views": 10])
            let duplicate = try await api.post(base, ["metacounter": ["likes": 1, "shares": 1]])
            #expect(duplicate.status == 409)
            #expect(try duplicate.code == 400202)

            #expect(
                try await api.put(base, ["metacounter": ["likes": 2, "shares": 5], "mode": "increase"]).decode([String: Int64].self)
                    == ["likes": 5, "shares": 5])
            #expect(try await api.put(base, ["metacounter": ["views": 4], "mode": "decrease"]).decode([String: Int64].self) == ["views": 6])
            #expect(try await api.put(base, ["metacounter": ["views": -7]]).decode([String: Int64].self) == ["views": -7])
            let strict = try await api.put(base, ["metacounter": ["likes": 1, "new": 1], "mode": "increase", "upsert": false])
            #expect(strict.status == 404)
            #expect(try strict.code == 400201)
            #expect(try await api.put("\(base)/likes", ["value": 10, "mode": "increase"]).decode([String: Int64].self) == ["likes": 15])
            #expect(try await api.put("\(base)/fresh", ["value": 2, "mode": "decrease"]).decode([String: Int64].self) == ["fresh": -2])

            #expect(try await api.get(base).decode([String: Int64].self) == ["likes": 15, "views": -7, "shares": 5, "fresh": -2])
            #expect(try await api.get("\(base)?keys=likes,ghost&key=views").decode([String: Int64].self) == ["likes": 15, "views": -7])
            #expect(try await api.get("\(base)/shares").decode([String: Int64].self) == ["shares": 5])
            #expect(try await api.get("\(base)/ghost").code == 400201)

            #expect(try await api.delete("\(base)/shares").status == 200)
            #expect(try await api.delete("\(base)/shares").code == 400201)
            #expect(try await api.delete(base).status == 200)
            #expect(try await api.get(base).decode([String: Int64].self) == [:])
        }
    }

    @Test func badInputIsRefusedAndChangesNothing() async throws {
        try await TestServer.withAPI { api in
            let channel = try await api.createChannel(["user_ids": [try await api.cast("mcbad", 1)[0]]])
            let base = "/v3/group_channels/\(channel)/metacounter"
            #expect(try await api.post(base, ["metacounter": ["top": Int64.max - 1]]).status == 201)
            let overflow = try await api.put("\(base)/top", ["value": 2, "mode": "increase"])
            #expect(overflow.status == 400)
            #expect(try overflow.code == 400111)
            #expect(try await api.put(base, ["metacounter": ["a": 1.5]]).code == 400111)
            #expect(try await api.put(base, ["metacounter": ["a": "1"]]).code == 400101)
            #expect(try await api.put(base, ["metacounter": ["a": NSNull()]]).code == 400101)
            #expect(try await api.put(base, ["metacounter": ["a": 1], "mode": "multiply"]).code == 400111)
            #expect(try await api.put(base, ["metacounter": ["": 1]]).code == 400111)
            #expect(try await api.put(base, ["metacounter": [String(repeating: "k", count: 129): 1]]).code == 400110)
            #expect(try await api.put(base, ["metacounter": "flat"]).code == 400103)
            #expect(try await api.put(base, [:]).code == 400105)
            #expect(try await api.put("\(base)/a", ["value": "x"]).code == 400101)
            let ninetyNine = Dictionary(uniqueKeysWithValues: (0..<98).map { ("k\($0)", 1) })
            #expect(try await api.put(base, ["metacounter": ninetyNine]).status == 200)
            let over = try await api.put(base, ["metacounter": ["x1": 1, "x2": 1]])
            #expect(over.status == 409)
            #expect(try over.code == 400203)
            let values = try await api.get(base).decode([String: Int64].self)
            #expect(values.count == 99)
            #expect(values["top"] == Int64.max - 1)
            #expect(try await api.get("/v3/group_channels/\(uniqueID("ghost"))/metacounter").code == 400201)
        }
    }

    @Test func membersReadOperatorsWriteAndTheMembersHearIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("mcauth", 3)
            let (owner, member, outsider) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [owner, member], "operator_ids": [owner]])
            let base = "/v3/group_channels/\(channel)/metacounter"
            let memberSocket = try await api.events(cast.tokens[member]!)
            #expect(try await api.post(base, ["metacounter": ["votes": 1]], as: cast.session(0)).status == 201)
            let created = try await memberSocket.waitFor { $0["type"] as? String == "metacounter_changed" }
            #expect(((created["data"] as? [String: Any])?["metacounter"] as? [String: Int]) == ["votes": 1])

            #expect(try await api.get(base, as: cast.session(1)).decode([String: Int64].self) == ["votes": 1])
            let refused = try await api.put("\(base)/votes", ["value": 1, "mode": "increase"], as: cast.session(1))
            #expect(refused.status == 403)
            #expect(try refused.code == 400108)
            // An outsider does not see the channel (404), let alone its counters.
            #expect(try await api.get(base, as: cast.session(2)).code == 400201)
            #expect(try await api.put(base, ["metacounter": ["votes": 9]], as: cast.session(2)).code == 400201)
            #expect(try await api.get("/v3/users/\(outsider)").status == 200)

            #expect(try await api.delete("\(base)/votes", as: cast.session(0)).status == 200)
            let deleted = try await memberSocket.waitFor {
                $0["type"] as? String == "metacounter_changed"
                    && (($0["data"] as? [String: Any])?["deleted_keys"] as? [String]) == ["votes"]
            }
            #expect(((deleted["data"] as? [String: Any])?["metacounter"] as? [String: Int]) == [:])
            #expect(try await api.get(base).decode([String: Int64].self) == [:])
            memberSocket.close()
        }
    }

    @Test func anOpenChannelHasOneToo() async throws {
        try await TestServer.withAPI { api in
            let url = uniqueID("mcopen")
            let opened = try await api.post("/v3/open_channels", ["channel_url": url])
            #expect(opened.status == 201)
            let base = "/v3/open_channels/\(url)/metacounter"
            #expect(try await api.post(base, ["metacounter": ["online": 2]]).status == 201)
            #expect(try await api.put("\(base)/online", ["value": 1, "mode": "decrease"]).decode([String: Int64].self) == ["online": 1])
            #expect(try await api.get(base).decode([String: Int64].self) == ["online": 1])
            #expect(try await api.get("/v3/group_channels/\(url)/metacounter").code == 400201)
        }
    }
}
