import Foundation
import HTTPTypes
import Testing

/// API.md §5.3: file auth keys and who may download a file.
@Suite struct FileAuthTests {
    @Test func downloadsNeedACurrentKeyOfAJoinedMemberOrTheApiToken() async throws {
        let clock = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: clock.clock) { api in
            let users = try await api.cast("fileauth", 4)
            let url = try await api.createChannel(["user_ids": [users[1], users[3]]], as: users.session(0))
            let bytes = Media.random(3000)
            let sent = try await api.upload(url, file: FormFile(bytes: bytes), as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let plain = try #require(try sent.decode(MessageBody.self).file?.url.components(separatedBy: "?").first)

            func key(_ index: Int) async throws -> String {
                let issued = try await api.post("/v3/users/\(users[index])/file_auth_key", as: users.session(index))
                #expect(issued.status == 200, "\(issued.text)")
                let key = try issued.decode(FileAuthKeyBody.self)
                #expect(key.expiresAt == Int(clock.clock.nowMillis) + 3 * 24 * 3600 * 1000)
                return key.auth
            }
            let memberKey = try await key(1)
            #expect(try await api.download(plain + "?auth=\(memberKey)").bytes == bytes)
            // No key, garbage, another signature.
            let none = try await api.download(plain)
            #expect(none.status == 401)
            #expect(String(decoding: none.bytes, as: UTF8.self).contains("400302"))
            #expect(try await api.download(plain + "?auth=garbage").status == 401)
            #expect(try await api.download(plain + "?auth=\(memberKey.dropLast(2))xx").status == 401)
            // The admin token works without a key; a wrong token does not.
            #expect(try await api.download(plain, as: .admin).bytes == bytes)
            #expect(try await api.download(plain, as: .apiToken("wrong-token-0123456789")).status == 401)
            // A valid key of someone outside the channel is forbidden.
            let outsider = try await api.download(plain + "?auth=\(try await key(2))")
            #expect(outsider.status == 403)
            #expect(String(decoding: outsider.bytes, as: UTF8.self).contains("400108"))
            // A member who leaves loses access with the same key.
            let leavingKey = try await key(3)
            #expect(try await api.download(plain + "?auth=\(leavingKey)").status == 200)
            #expect(try await api.put("/v3/group_channels/\(url)/leave", ["user_ids": [users[3]]], as: users.session(3)).status == 200)
            #expect(try await api.download(plain + "?auth=\(leavingKey)").status == 403)
            // Keys expire after three days.
            clock.advance(by: 3 * 24 * 3600 * 1000 + 1)
            #expect(try await api.download(plain + "?auth=\(memberKey)").status == 401)
            let fresh = try await key(1)
            #expect(try await api.download(plain + "?auth=\(fresh)").status == 200)
            // Revoking the user's session tokens revokes their file keys.
            clock.advance(by: 5)
            #expect(try await api.delete("/v3/users/\(users[1])/token").status == 200)
            clock.advance(by: 5)
            #expect(try await api.download(plain + "?auth=\(fresh)").status == 401)
            // Unknown files are 404 whatever the key.
            let newKey = try await api.post("/v3/users/\(users[0])/file_auth_key").decode(FileAuthKeyBody.self).auth
            #expect(try await api.download("http://files.test/v3/files/0123456789abcdef0123456789abcdef?auth=\(newKey)").status == 404)
            #expect(try await api.download("http://files.test/v3/files/not-an-id?auth=\(newKey)").status == 404)
            #expect(try await api.download(plain + "/thumbnails/1?auth=\(newKey)").status == 404, "no thumbnails were made")
        }
    }

    @Test func onlyTheUserOrTheAdminIssuesTheirKey() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("filekey", 2)
            #expect(try await api.post("/v3/users/\(users[0])/file_auth_key", as: users.session(1)).status == 403)
            #expect(try await api.post("/v3/users/\(users[0])/file_auth_key", as: .none).status == 401)
            #expect(try await api.post("/v3/users/\(users[0])/file_auth_key").status == 200)
            #expect(try await api.post("/v3/users/nobody-\(uniqueID("u"))/file_auth_key").code == 400201)
        }
    }

    @Test func aFileSentWithoutRequireAuthNeedsNoKey() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("publicfile", 2)
            let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let bytes = Media.random(500)
            let sent = try await api.upload(url, ["require_auth": "false"], file: FormFile(bytes: bytes), as: users.session(0))
            let message = try sent.decode(MessageBody.self)
            #expect(message.requireAuth == false)
            let link = try #require(message.file?.url)
            #expect(!link.contains("?auth="))
            #expect(try await api.download(link).bytes == bytes)
        }
    }
}
