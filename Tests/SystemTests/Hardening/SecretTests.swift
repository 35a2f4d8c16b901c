import Foundation
import ParleyContainer
import Postgres
import Testing

/// Issue 10.10 and 10.12: file auth keys end with the account state they were issued for; access
/// codes and page tokens use keys of their own.
@Suite struct SecretTests {
    @Test func deactivationEndsKeysAndSessionsForGood() async throws {
        let clock = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: clock.clock) { api in
            let users = try await api.cast("deact", 2)
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let sent = try await api.upload(url, file: FormFile(bytes: [1, 2, 3]), as: users.session(0))
            let plain = try #require(try sent.decode(MessageBody.self).file?.url.components(separatedBy: "?").first)
            let key = try await api.post("/v3/users/\(users[1])/file_auth_key", as: users.session(1)).decode(FileAuthKeyBody.self).auth
            #expect(try await api.download(plain + "?auth=\(key)").status == 200)
            let deactivated = try await api.put("/v3/users/\(users[1])", ["is_active": false, "leave_all_when_deactivated": false])
            #expect(deactivated.status == 200)
            #expect(try await api.download(plain + "?auth=\(key)").status == 401, "a deactivated user's key is dead")
            #expect(try await api.put("/v3/users/\(users[1])", ["is_active": true]).status == 200)
            #expect(try await api.download(plain + "?auth=\(key)").status == 401, "and stays dead after reactivation")
            let oldSession = try await api.get("/v3/users/\(users[1])", as: users.session(1))
            #expect(oldSession.status == 401, "the session from before deactivation does not come back")
            #expect(try oldSession.code == 400302)
            let token = try await api.post("/v3/users/\(users[1])/token").decode(SessionTokenBody.self).token
            let newKey = try await api.post("/v3/users/\(users[1])/file_auth_key", as: .session(token)).decode(FileAuthKeyBody.self).auth
            #expect(try await api.download(plain + "?auth=\(newKey)").status == 200)
        }
    }

    @Test func aRecreatedUserDoesNotInheritTheOldAccountsKeys() async throws {
        // The same millisecond throughout: the generation, not the time, tells accounts apart.
        let clock = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: clock.clock) { api in
            let users = try await api.cast("recreate", 2)
            let url = try await api.createChannel(["user_ids": [users[1]], "is_public": true], as: users.session(0))
            let sent = try await api.upload(url, file: FormFile(bytes: [4, 5, 6]), as: users.session(0))
            let plain = try #require(try sent.decode(MessageBody.self).file?.url.components(separatedBy: "?").first)
            let oldKey = try await api.post("/v3/users/\(users[1])/file_auth_key").decode(FileAuthKeyBody.self).auth
            #expect(try await api.download(plain + "?auth=\(oldKey)").status == 200)
            #expect(try await api.delete("/v3/users/\(users[1])").status == 200)
            let token = try await api.createUser(users[1])
            #expect(try await api.put("/v3/group_channels/\(url)/join", [:], as: .session(token)).status == 200)
            #expect(try await api.download(plain + "?auth=\(oldKey)").status == 401)
            let newKey = try await api.post("/v3/users/\(users[1])/file_auth_key").decode(FileAuthKeyBody.self).auth
            #expect(try await api.download(plain + "?auth=\(newKey)").status == 200)
        }
    }

    @Test func accessCodesAreStoredAsKeyedHashesAndOldOnesAreUpgraded() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("code", 3)
            let url = try await api.createChannel(["user_ids": [], "is_public": true, "access_code": "1234"], as: users.session(0))
            let database = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            func stored() throws -> String {
                try database.query("SELECT access_code_hash FROM group_channels WHERE channel_url = $1", [url])[0].decode(
                    "access_code_hash")
            }
            let unsalted = try database.query("SELECT encode(sha256('1234'), 'hex') AS h")[0].decode("h", as: String.self)
            #expect(try stored().hasPrefix("hmac-sha256:"))
            #expect(try !stored().contains(unsalted))
            #expect(try await api.put("/v3/group_channels/\(url)/join", ["access_code": "4321"], as: users.session(1)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/join", ["access_code": "1234"], as: users.session(1)).status == 200)
            // A code stored by an earlier version still admits, and is stored anew.
            try database.query("UPDATE group_channels SET access_code_hash = encode(sha256('9876'), 'hex') WHERE channel_url = $1", [url])
            #expect(try await api.put("/v3/group_channels/\(url)/join", ["access_code": "1234"], as: users.session(2)).status == 403)
            #expect(try await api.put("/v3/group_channels/\(url)/join", ["access_code": "9876"], as: users.session(2)).status == 200)
            #expect(try stored().hasPrefix("hmac-sha256:"))
        }
    }

    @Test func pageTokensOutliveARotationOfTheApiTokenButNotAnotherServerKey() async throws {
        let prefix = uniqueID("rotate")
        let fileKey = (0..<32).map { UInt8($0) }
        let token = try await firstPageToken(prefix: prefix, apiToken: TestServer.apiToken, fileKey: fileKey)
        try await TestServer.withAPI({
            $0.apiToken = "a-rotated-api-token-0123456789"
            $0.fileKey = fileKey
        }) { api in
            let next = try await api.get(
                "/v3/users?user_ids=\(prefix)-0,\(prefix)-1,\(prefix)-2&limit=1&token=\(token)",
                as: .apiToken("a-rotated-api-token-0123456789"))
            #expect(next.status == 200, "\(next.text)")
            #expect(try next.decode(UserList.self).items.first?.userID == "\(prefix)-1")
        }
        try await TestServer.withAPI({ $0.fileKey = (0..<32).map { UInt8(255 - $0) } }) { api in
            let foreign = try await api.get("/v3/users?user_ids=\(prefix)-0,\(prefix)-1,\(prefix)-2&limit=1&token=\(token)")
            #expect(try foreign.code == 400109)
        }
    }

    private func firstPageToken(prefix: String, apiToken: String, fileKey: [UInt8]) async throws -> String {
        let result = Captured("")
        try await TestServer.withAPI({ $0.fileKey = fileKey }) { api in
            for index in 0..<3 { try await api.createUser("\(prefix)-\(index)") }
            let first = try await api.get("/v3/users?user_ids=\(prefix)-0,\(prefix)-1,\(prefix)-2&limit=1")
            result.value = try first.decode(UserList.self).next
        }
        return result.value
    }
}
