import Foundation
import Testing

/// API.md §2.2: creating, reading, updating and deleting users, with every validation error.
@Suite struct UserTests {
    @Test func createReturnsTheUserAndRejectsDuplicates() async throws {
        let userID = uniqueID("u:ser+1@x.y")
        try await TestServer.withAPI { api in
            let created = try await api.post(
                "/v3/users",
                [
                    "user_id": userID, "nickname": "Ann", "profile_url": "https://img/a.png", "metadata": ["k": "v"]
                ])
            #expect(created.status == 201)
            let user = try created.decode(UserBody.self)
            #expect(user.userID == userID)
            #expect(user.nickname == "Ann")
            #expect(user.profileURL == "https://img/a.png")
            #expect(user.isActive == true)
            #expect(user.isOnline == false)
            #expect(user.lastSeenAt == 0)
            #expect(user.createdAt ?? 0 > 1_600_000_000_000)
            #expect(user.metadata == ["k": "v"])
            #expect(created.rawJSON["session_token"] == nil, "absent unless asked for")

            let fetched = try await api.get("/v3/users/\(userID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!)")
            #expect(fetched.status == 200)
            #expect(try fetched.decode(UserBody.self).createdAt == user.createdAt)

            let duplicate = try await api.post("/v3/users", ["user_id": userID, "nickname": "Other"])
            #expect(duplicate.status == 409)
            #expect(try duplicate.code == 400202)
            #expect(try await api.get("/v3/users/\(userID)").decode(UserBody.self).nickname == "Ann")
        }
    }

    @Test(
        arguments: [
            (["nickname": "n"], 400105),
            (["user_id": "a"], 400105),
            (["user_id": 5, "nickname": "n"], 400100),
            (["user_id": "a b", "nickname": "n"], 400111),
            (["user_id": "", "nickname": "n"], 400111),
            (["user_id": String(repeating: "a", count: 81), "nickname": "n"], 400110),
            (["user_id": "ok", "nickname": String(repeating: "n", count: 81)], 400110),
            (["user_id": "ok", "nickname": "n", "metadata": "x"], 400103),
            (["user_id": "ok", "nickname": "n", "metadata": ["a": 1]], 400100),
            (["user_id": "ok", "nickname": "n", "issue_session_token": "yes"], 400104),
            (["user_id": "ok", "nickname": "n", "metadata": ["k": String(repeating: "v", count: 191)]], 400110)
        ] as [([String: any Sendable], Int)])
    func invalidCreateIsRejectedWithItsCode(body: [String: any Sendable], code: Int) async throws {
        try await TestServer.withAPI { api in
            var body = body
            if body["user_id"] as? String == "ok" { body["user_id"] = uniqueID("ok") }
            let response = try await api.post("/v3/users", body)
            #expect(response.status == 400)
            #expect(try response.code == code, "\(response.text)")
            if let userID = body["user_id"] as? String, !userID.isEmpty {
                // Nothing was created: a well-formed id is unknown (404), a malformed one refused (400).
                let path = userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                #expect([400, 404].contains(try await api.get("/v3/users/\(path)").status))
            }
        }
    }

    @Test func tooManyMetadataKeysOnCreateIs409400203() async throws {
        try await TestServer.withAPI { api in
            let metadata = Dictionary(uniqueKeysWithValues: (0...100).map { ("k\($0)", "v") })
            let response = try await api.post("/v3/users", ["user_id": uniqueID("many"), "nickname": "n", "metadata": metadata])
            #expect(response.status == 409)
            #expect(try response.code == 400203)
        }
    }

    @Test func twentyConcurrentCreatesOfOneIDYieldExactlyOne201() async throws {
        let userID = uniqueID("race")
        try await TestServer.withAPI { api in
            // On connections of their own: one connection's requests are served one after another.
            let statuses = try await api.burst(20) { client, index in
                try await client.post("/v3/users", ["user_id": userID, "nickname": "n\(index)"]).status
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 409 }.count == 19)
        }
    }

    @Test func userUpdatesOwnProfileAndAdminUpdatesAnyone() async throws {
        let userID = uniqueID("upd")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            let own = try await api.put("/v3/users/\(userID)", ["nickname": "New", "profile_url": "p"], as: .session(token))
            #expect(own.status == 200)
            #expect(try own.decode(UserBody.self).nickname == "New")
            #expect(try own.decode(UserBody.self).profileURL == "p")
            let admin = try await api.put("/v3/users/\(userID)", ["is_active": false, "leave_all_when_deactivated": true])
            #expect(try admin.decode(UserBody.self).isActive == false)
            #expect(try admin.decode(UserBody.self).nickname == "New")
            let wrongType = try await api.put("/v3/users/\(userID)", ["is_active": "no"])
            #expect(try wrongType.code == 400104)
            let missing = try await api.put("/v3/users/\(uniqueID("nobody"))", ["nickname": "x"])
            #expect(missing.status == 404)
            #expect(try missing.code == 400201)
        }
    }

    @Test func deleteRemovesTheUserTokensAndMetadata() async throws {
        let userID = uniqueID("del")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID, metadata: ["a": "b"])
            #expect(try await api.delete("/v3/users/\(userID)").status == 200)
            #expect(try await api.get("/v3/users/\(userID)").code == 400201)
            #expect(try await api.get("/v3/users", as: .session(token)).code == 400302)
            #expect(try await api.delete("/v3/users/\(userID)").status == 404)
            // The id is free again, with nothing left over from before.
            try await api.createUser(userID)
            #expect(try await api.get("/v3/users/\(userID)").decode(UserBody.self).metadata == [:])
        }
    }

    @Test func pathCapturesArePercentDecoded() async throws {
        let userID = uniqueID("p:q+r@s")
        try await TestServer.withAPI { api in
            #expect(try await api.post("/v3/users", ["user_id": userID, "nickname": "Pat"]).status == 201)
            let escaped = userID.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "+", with: "%2b")
                .replacingOccurrences(of: "@", with: "%40")
            let fetched = try await api.get("/v3/users/\(escaped)")
            #expect(fetched.status == 200)
            #expect(try fetched.decode(UserBody.self).userID == userID)
            // A malformed escape is taken literally, and `%` is no user id character: 400111.
            #expect(try await api.get("/v3/users/\(escaped)%zz").code == 400111)
            #expect(try await api.get("/v3/users/\(escaped)%4").code == 400111)
        }
    }

    @Test func unknownUserIs404() async throws {
        try await TestServer.withAPI { api in
            let response = try await api.get("/v3/users/\(uniqueID("ghost"))")
            #expect(response.status == 404)
            #expect(try response.code == 400201)
        }
    }

    @Test func invitationPreferenceDefaultsToAutoAccept() async throws {
        let userID = uniqueID("pref")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            let path = "/v3/users/\(userID)/channel_invitation_preference"
            #expect(try await api.get(path, as: .session(token)).decode(InvitationPreferenceBody.self).autoAccept == true)
            #expect(
                try await api.put(path, ["auto_accept": false], as: .session(token)).decode(InvitationPreferenceBody.self).autoAccept
                    == false)
            #expect(try await api.get(path).decode(InvitationPreferenceBody.self).autoAccept == false)
            #expect(try await api.put(path, [:]).code == 400105)
            #expect(try await api.put(path, ["auto_accept": 1]).code == 400104)
            #expect(try await api.get("/v3/users/\(uniqueID("ghost"))/channel_invitation_preference").code == 400201)
        }
    }

    @Test func sessionTokenRequestsAreValidated() async throws {
        let userID = uniqueID("tok")
        try await TestServer.withAPI { api in
            try await api.createUser(userID)
            let past = try await api.post("/v3/users/\(userID)/token", ["expires_at": 1000])
            #expect(try past.code == 400111)
            let text = try await api.post("/v3/users/\(userID)/token", ["expires_at": "tomorrow"])
            #expect(try text.code == 400101)
            let ghost = try await api.post("/v3/users/\(uniqueID("ghost"))/token")
            #expect(try ghost.code == 400201)
            let issued = try await api.post("/v3/users/\(userID)/token").decode(SessionTokenBody.self)
            #expect(issued.userID == userID)
            let expiresAt = issued.expiresAt
            let week = 7 * 24 * 3600 * 1000
            #expect(abs(expiresAt - Int(Date().timeIntervalSince1970 * 1000) - week) < 60_000)
        }
    }
}

@Suite struct UserEncodingTests {
    @Test func awkwardTextSurvivesTheRoundTrip() async throws {
        let userID = uniqueID("text")
        // Tab, line feed and carriage return are the control characters text may hold (issue 29.1).
        let nickname = "Zoë \"Q\" \\ / \r\t\n😀"
        let metadata = ["quote\"key": "line\nbreak", "emoji😀": "\tbell \\ back", "slash/": "日本語", "": "x"].filter { !$0.key.isEmpty }
        try await TestServer.withAPI { api in
            let created = try await api.post("/v3/users", ["user_id": userID, "nickname": nickname, "metadata": metadata])
            #expect(created.status == 201, "\(created.text)")
            let fetched = try await api.get("/v3/users/\(userID)").decode(UserBody.self)
            #expect(fetched.nickname == nickname)
            #expect(fetched.metadata == metadata)
            let listed = try await api.get("/v3/users?user_ids=\(userID)").decode(UserList.self)
            #expect(listed.items.first?.metadata == metadata)
        }
    }
}
