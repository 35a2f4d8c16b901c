import Foundation
import Testing

/// API.md §1.7: Api-Token, Session-Token and Bearer, and what a session user may not do.
@Suite struct AuthenticationTests {
    @Test func missingOrWrongApiTokenIs401() async throws {
        try await TestServer.withAPI { api in
            let missing = try await api.get("/v3/users", as: .none)
            #expect(missing.status == 401)
            #expect(try missing.code == 400401)
            let wrong = try await api.get("/v3/users", as: .apiToken("not-the-token"))
            #expect(wrong.status == 401)
            #expect(try wrong.code == 400401)
        }
    }

    @Test func garbageSessionTokenIs401400302() async throws {
        try await TestServer.withAPI { api in
            for token in ["garbage", String(repeating: "a", count: 72), String(repeating: "é", count: 36)] {
                let response = try await api.get("/v3/users", as: .session(token))
                #expect(response.status == 401)
                #expect(try response.code == 400302)
            }
            let badScheme = try await api.raw(.get, "/v3/users", headers: [.authorization: "Basic abc"], as: .none)
            #expect(try badScheme.code == 400302)
        }
    }

    @Test func sessionTokenWorksAsHeaderAndAsBearer() async throws {
        let userID = uniqueID("alice")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            let viaHeader = try await api.get("/v3/users/\(userID)", as: .session(token))
            #expect(viaHeader.status == 200)
            #expect(try viaHeader.decode(UserBody.self).isActive == true)
            let viaBearer = try await api.get("/v3/users/\(userID)", as: .bearer(token))
            #expect(viaBearer.status == 200)
        }
    }

    @Test func tamperedSessionTokenIsRefused() async throws {
        let userID = uniqueID("tamper")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            var characters = Array(token)
            characters[characters.count - 1] = characters.last == "0" ? "1" : "0"
            let response = try await api.get("/v3/users/\(userID)", as: .session(String(characters)))
            #expect(response.status == 401)
            #expect(try response.code == 400302)
        }
    }

    @Test func expiredSessionTokenIsRefused() async throws {
        let userID = uniqueID("expiring")
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            try await api.createUser(userID)
            let expiresAt = time.clock.nowMillis + 2000
            let issued = try await api.post("/v3/users/\(userID)/token", ["expires_at": expiresAt])
            #expect(issued.status == 200)
            let token = try issued.decode(SessionTokenBody.self).token
            #expect(try await api.get("/v3/users/\(userID)", as: .session(token)).status == 200)
            time.advance(by: 2200)
            let expired = try await api.get("/v3/users/\(userID)", as: .session(token))
            #expect(expired.status == 401)
            #expect(try expired.code == 400302)
        }
    }

    /// Issue 10.10: reactivation does not bring back the tokens of before (it did until then).
    @Test func deactivatedUsersTokensStopWorkingForGood() async throws {
        let userID = uniqueID("deactivated")
        try await TestServer.withAPI { api in
            let token = try await api.createUser(userID)
            #expect(try await api.put("/v3/users/\(userID)", ["is_active": false]).status == 200)
            let refused = try await api.get("/v3/users/\(userID)", as: .session(token))
            #expect(refused.status == 401)
            #expect(try refused.code == 400300)
            #expect(try await api.put("/v3/users/\(userID)", ["is_active": true]).status == 200)
            let revoked = try await api.get("/v3/users/\(userID)", as: .session(token))
            #expect(revoked.status == 401)
            #expect(try revoked.code == 400302)
            let fresh = try await api.post("/v3/users/\(userID)/token").decode(SessionTokenBody.self).token
            #expect(try await api.get("/v3/users/\(userID)", as: .session(fresh)).status == 200)
        }
    }

    @Test func sessionUserCannotActForOthers() async throws {
        let alice = uniqueID("alice")
        let bob = uniqueID("bob")
        try await TestServer.withAPI { api in
            let aliceToken = try await api.createUser(alice, metadata: ["secret": "x"])
            try await api.createUser(bob, metadata: ["secret": "y"])
            let asAlice = Credential.session(aliceToken)

            let create = try await api.post("/v3/users", ["user_id": uniqueID("c"), "nickname": "c"], as: asAlice)
            #expect(create.status == 403)
            #expect(try create.code == 400108)
            let mint = try await api.post("/v3/users/\(alice)/token", [:], as: asAlice)
            #expect(mint.status == 403)
            let mintOther = try await api.post("/v3/users/\(bob)/token", [:], as: asAlice)
            #expect(mintOther.status == 403)
            let update = try await api.put("/v3/users/\(bob)", ["nickname": "hacked"], as: asAlice)
            #expect(update.status == 403)
            #expect(try update.code == 400108)
            let delete = try await api.delete("/v3/users/\(bob)", as: asAlice)
            #expect(delete.status == 403)
            let metadata = try await api.get("/v3/users/\(bob)/metadata", as: asAlice)
            #expect(metadata.status == 403)
            let writeMetadata = try await api.put("/v3/users/\(bob)/metadata", ["metadata": ["a": "b"]], as: asAlice)
            #expect(writeMetadata.status == 403)
            let preference = try await api.get("/v3/users/\(bob)/channel_invitation_preference", as: asAlice)
            #expect(preference.status == 403)
            let revoke = try await api.delete("/v3/users/\(bob)/token", as: asAlice)
            #expect(revoke.status == 403)
            let deactivateSelf = try await api.put("/v3/users/\(alice)", ["is_active": false], as: asAlice)
            #expect(deactivateSelf.status == 403)

            let bobAfter = try await api.get("/v3/users/\(bob)")
            #expect(try bobAfter.decode(UserBody.self).nickname == bob)
            #expect(try bobAfter.decode(UserBody.self).metadata == ["secret": "y"])
        }
    }

    @Test func othersSeeOnlyPublicFields() async throws {
        let alice = uniqueID("alice")
        let bob = uniqueID("bob")
        try await TestServer.withAPI { api in
            let aliceToken = try await api.createUser(alice)
            try await api.createUser(bob, metadata: ["phone": "123"])
            let seen = try await api.get("/v3/users/\(bob)", as: .session(aliceToken))
            #expect(seen.status == 200)
            // The exact set of fields: the private ones are absent, not null.
            #expect(Set(seen.rawJSON.keys) == ["user_id", "nickname", "profile_url", "is_online", "last_seen_at"])
            let listed = try await api.get("/v3/users?user_ids=\(alice),\(bob)", as: .session(aliceToken))
            #expect(try listed.decode(UserList.self).items.count == 2)
            // Whether the private fields are there at all (for another user: absent, not null).
            for user in listed.rawJSON["users"] as? [[String: Any]] ?? [] {
                let isSelf = user["user_id"] as? String == alice
                #expect((user["metadata"] != nil) == isSelf)
            }
        }
    }

    @Test func revokingTokensSignsOutEverywhere() async throws {
        let userID = uniqueID("revoke")
        try await TestServer.withAPI { api in
            let first = try await api.createUser(userID)
            let second = try await api.post("/v3/users/\(userID)/token").decode(SessionTokenBody.self).token
            #expect(try await api.delete("/v3/users/\(userID)/token", as: .session(first)).status == 200)
            for token in [first, second] {
                let response = try await api.get("/v3/users/\(userID)", as: .session(token))
                #expect(try response.code == 400302)
            }
        }
    }
}
