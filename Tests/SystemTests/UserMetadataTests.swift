import Foundation
import Testing

/// `/v3/users/{user_id}/metadata[/{key}]` (API.md §2.2).
@Suite struct UserMetadataTests {
    @Test func createReadUpdateDelete() async throws {
        let userID = uniqueID("meta")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            let base = "/v3/users/\(userID)/metadata"
            let created = try await api.post(base, ["metadata": ["a": "1", "b": "2"]], as: .session(token))
            #expect(created.status == 201)
            #expect(try created.decode([String: String].self) == ["a": "1", "b": "2"])
            let duplicate = try await api.post(base, ["metadata": ["a": "x"]])
            #expect(duplicate.status == 409)
            #expect(try duplicate.code == 400202)

            #expect(try await api.get(base).decode([String: String].self) == ["a": "1", "b": "2"])
            #expect(try await api.get("\(base)/a").decode([String: String].self) == ["a": "1"])
            #expect(try await api.get("\(base)/zzz").code == 400201)

            #expect(try await api.put(base, ["metadata": ["a": "10", "c": "3"]]).status == 200)
            let strict = try await api.put(base, ["metadata": ["d": "4"], "upsert": false])
            #expect(strict.status == 404)
            #expect(try strict.code == 400201)
            #expect(try await api.put("\(base)/b", ["value": "20"]).status == 200)
            #expect(try await api.get(base).decode([String: String].self) == ["a": "10", "b": "20", "c": "3"])

            #expect(try await api.delete("\(base)/a").status == 200)
            #expect(try await api.delete("\(base)/a").code == 400201)
            #expect(try await api.get("/v3/users/\(userID)").decode(UserBody.self).metadata == ["b": "20", "c": "3"])
            #expect(try await api.delete(base).status == 200)
            #expect(try await api.get(base).decode([String: String].self) == [:])
        }
    }

    @Test func limitsAndTypesAreEnforcedAndChangeNothing() async throws {
        let userID = uniqueID("metalimit")
        try await TestServer.withAPI { api in
            try await api.createUser(userID)
            let base = "/v3/users/\(userID)/metadata"
            let ninetyNine = Dictionary(uniqueKeysWithValues: (0..<99).map { ("k\($0)", "v") })
            #expect(try await api.put(base, ["metadata": ninetyNine]).status == 200)
            let over = try await api.put(base, ["metadata": ["x1": "v", "x2": "v"]])
            #expect(over.status == 409)
            #expect(try over.code == 400203)
            #expect(try await api.get(base).decode([String: String].self).count == 99)
            #expect(try await api.put(base, ["metadata": ["k1": String(repeating: "v", count: 191)]]).code == 400110)
            #expect(try await api.put(base, ["metadata": "flat"]).code == 400103)
            #expect(try await api.put(base, [:]).code == 400105)
            #expect(try await api.put("\(base)/k1", ["value": 3]).code == 400100)
            #expect(try await api.get("/v3/users/\(uniqueID("ghost"))/metadata").code == 400201)
        }
    }

    @Test func concurrentWritersCannotExceedTheKeyLimit() async throws {
        let userID = uniqueID("metarace")
        try await TestServer.withAPI { api in
            try await api.createUser(userID)
            let base = "/v3/users/\(userID)/metadata"
            // On connections of their own (`API.burst`): one connection's requests run in turn.
            let statuses = try await api.burst(4) { client, writer in
                let map = Dictionary(uniqueKeysWithValues: (0..<40).map { ("w\(writer)-\($0)", "v") })
                return try await client.put(base, ["metadata": map]).status
            }
            #expect(statuses.filter { $0 == 200 }.count == 2)
            #expect(try await api.get(base).decode([String: String].self).count == 80)
        }
    }
}
