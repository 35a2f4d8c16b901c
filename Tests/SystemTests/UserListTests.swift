import Foundation
import Testing

/// `GET /v3/users`: filters and keyset pagination (API.md §1.6, §2.2).
@Suite struct UserListTests {
    /// Pages through `path` (which must carry its own filters) and returns every user_id seen.
    private func collect(_ api: API, _ path: String, limit: Int, between: (Int) async throws -> Void = { _ in }) async throws -> [String] {
        var seen: [String] = []
        var token = ""
        var page = 0
        repeat {
            let response = try await api.get("\(path)&limit=\(limit)&token=\(token)")
            #expect(response.status == 200, "\(response.text)")
            let users = try response.decode(UserList.self)
            #expect(users.items.count <= limit)
            seen += users.items.map(\.userID)
            token = users.next
            try await between(page)
            page += 1
        } while !token.isEmpty && page < 100
        return seen
    }

    @Test func pagesNeitherRepeatNorSkipWhileUsersAreInserted() async throws {
        let prefix = uniqueID("page")
        try await TestServer.withAPI { api in
            let original = (0..<25).map { String(format: "\(prefix)-%02d", $0 * 2) }
            for userID in original { try await api.createUser(userID, nickname: prefix) }
            var inserted: [String] = []
            let seen = try await collect(api, "/v3/users?nickname_startswith=\(prefix)", limit: 7) { page in
                // Insert one user before and one after the cursor on every page boundary.
                for userID in [String(format: "\(prefix)-%02d", page * 2 + 1), "\(prefix)-z\(page)"] {
                    try await api.createUser(userID, nickname: prefix)
                    inserted.append(userID)
                }
            }
            #expect(Set(seen).count == seen.count, "a user was repeated")
            #expect(Set(original).isSubset(of: Set(seen)), "a user was skipped")
            #expect(seen == seen.sorted(), "not in user_id order")
        }
    }

    @Test func filtersByIDsNicknameAndActiveMode() async throws {
        let prefix = uniqueID("filter")
        try await TestServer.withAPI { api in
            for index in 0..<3 { try await api.createUser("\(prefix)-\(index)", nickname: "\(prefix)-nick\(index)") }
            #expect(try await api.put("/v3/users/\(prefix)-2", ["is_active": false]).status == 200)

            let byIDs = try await api.get("/v3/users?user_ids=\(prefix)-0,\(prefix)-1,\(prefix)-2,\(prefix)-nope")
            #expect(try byIDs.decode(UserList.self).items.count == 2)
            let all = try await api.get("/v3/users?user_ids=\(prefix)-0,\(prefix)-1,\(prefix)-2&active_mode=all")
            #expect(try all.decode(UserList.self).items.count == 3)
            let deactivated = try await api.get("/v3/users?nickname_startswith=\(prefix)&active_mode=deactivated")
            #expect(try deactivated.decode(UserList.self).items.map(\.userID) == ["\(prefix)-2"])
            let byNickname = try await api.get("/v3/users?nickname_startswith=\(prefix)-nick1").decode(UserList.self)
            #expect(byNickname.items.map(\.userID) == ["\(prefix)-1"])
            #expect(byNickname.next == "")
        }
    }

    @Test func tamperedOrForeignPageTokensAre400109() async throws {
        let prefix = uniqueID("tok")
        try await TestServer.withAPI { api in
            for index in 0..<3 { try await api.createUser("\(prefix)-\(index)", nickname: prefix) }
            let first = try await api.get("/v3/users?nickname_startswith=\(prefix)&limit=1")
            let token = try first.decode(UserList.self).next
            #expect(!token.isEmpty)
            #expect(try await api.get("/v3/users?nickname_startswith=\(prefix)&limit=1&token=\(token)").status == 200)

            var tampered = Array(token)
            tampered[2] = tampered[2] == "A" ? "B" : "A"
            for bad in [String(tampered), "garbage", token + "x", "\(token.prefix(10))"] {
                let response = try await api.get("/v3/users?nickname_startswith=\(prefix)&limit=1&token=\(bad)")
                #expect(response.status == 400)
                #expect(try response.code == 400109)
            }
            let otherFilter = try await api.get("/v3/users?nickname_startswith=zzz&limit=1&token=\(token)")
            #expect(try otherFilter.code == 400109)
        }
    }

    @Test(arguments: [("limit=0", 400111), ("limit=101", 400111), ("limit=ten", 400101), ("active_mode=sometimes", 400111)])
    func badListParametersAreRejected(query: String, code: Int) async throws {
        try await TestServer.withAPI { api in
            let response = try await api.get("/v3/users?\(query)")
            #expect(response.status == 400)
            #expect(try response.code == code)
        }
    }
}
