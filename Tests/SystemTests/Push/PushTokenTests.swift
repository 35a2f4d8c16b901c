import ByteCoding
import Crypto
import Foundation
import Testing

/// Device tokens (API.md §12.1) through HTTP: registration of each kind, one owner per token, the
/// 20-token cap, paging, removal, the admin's owner lookup, and what is refused.
@Suite struct PushTokenTests {
    static func apnsToken(_ index: Int) -> String {
        String(repeating: "ab", count: 28) + String(format: "%08x", index)
    }

    /// The JSON of a browser's `PushSubscription`, with a real P-256 key.
    static func subscription(_ endpoint: String) -> [String: Any] {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        return [
            "endpoint": endpoint, "expirationTime": NSNull(),
            "keys": ["p256dh": Base64URL.encode(Array(key)), "auth": Base64URL.encode((0..<16).map { UInt8($0) })]
        ]
    }

    @Test func aTokenHasOneOwnerAndMovesWhenAnotherUserRegistersIt() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushmove", 2)
            let token = "fcm-\(UUID().uuidString):APA91b"
            let first = try await api.post("/v3/users/\(cast[0])/push/gcm", ["gcm_reg_token": token], as: cast.session(0))
            #expect(first.status == 200, "\(first.text)")
            #expect(first.rawJSON["token"] as? String == token && first.rawJSON["type"] as? String == "gcm")
            #expect((first.rawJSON["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect(try await tokens(api, cast[0], "gcm") == [token])
            // The device changed hands.
            #expect(try await api.post("/v3/users/\(cast[1])/push/gcm", ["gcm_reg_token": token], as: cast.session(1)).status == 200)
            #expect(try await tokens(api, cast[0], "gcm").isEmpty)
            #expect(try await tokens(api, cast[1], "gcm") == [token])
            let owner = try await api.get("/v3/push/device_tokens/gcm/\(token)")
            #expect(owner.text.contains("\"user_id\":\"\(cast[1])\""), "\(owner.text)")
            // Only the admin asks who owns a token.
            #expect(try await api.get("/v3/push/device_tokens/gcm/\(token)", as: cast.session(1)).status == 403)
        }
    }

    @Test func aSessionUserManagesOnlyTheirOwnTokens() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushown", 2)
            let other = try await api.post("/v3/users/\(cast[1])/push/apns", ["apns_device_token": Self.apnsToken(1)], as: cast.session(0))
            #expect(other.status == 403)
            #expect(try other.code == 400108)
            #expect(try await api.get("/v3/users/\(cast[1])/push/apns", as: cast.session(0)).status == 403)
            #expect(try await api.delete("/v3/users/\(cast[1])/push", as: cast.session(0)).status == 403)
            // The admin may, for anyone.
            #expect(try await api.post("/v3/users/\(cast[1])/push/apns", ["apns_device_token": Self.apnsToken(1)]).status == 200)
            #expect(
                try await api.post("/v3/users/nobody-\(UUID().uuidString)/push/apns", ["apns_device_token": Self.apnsToken(2)]).status
                    == 404)
        }
    }

    @Test func badTokensAreRefusedAndNothingIsStored() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushbad", 1)
            let base = "/v3/users/\(cast[0])/push"
            let refusals: [(String, [String: Any], Int)] = [
                ("\(base)/apns", ["apns_device_token": "not-hex-at-all"], 400111),
                ("\(base)/apns", ["apns_device_token": "abcd"], 400111),
                ("\(base)/apns", ["gcm_reg_token": "x"], 400105),
                ("\(base)/gcm", ["gcm_reg_token": "has a space"], 400111),
                ("\(base)/gcm", ["gcm_reg_token": String(repeating: "a", count: 4097)], 400111),
                ("\(base)/gcm", ["gcm_reg_token": 12], 400100),
                ("\(base)/voip", ["gcm_reg_token": "x"], 400111),
                ("\(base)/web", ["web_push_subscription": Self.subscription("http://fcm.googleapis.com/fcm/send/x")], 400111),
                // Issue 50.3: only at the push services the operator lists (by default the browsers').
                ("\(base)/web", ["web_push_subscription": Self.subscription("https://push.example.com/x")], 400111),
                ("\(base)/web", ["web_push_subscription": Self.subscription("https://fcm.googleapis.com.example.com/x")], 400111),
                ("\(base)/web", ["web_push_subscription": Self.subscription("https://fcm.googleapis.com:8443/x")], 400111),
                (
                    "\(base)/web",
                    [
                        "web_push_subscription": [
                            "endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": ["p256dh": "AAAA", "auth": "AAAA"]
                        ]
                    ],
                    400111
                ),
                ("\(base)/web", ["web_push_subscription": "https://push.example.com/x"], 400103)
            ]
            for (path, body, code) in refusals {
                let answer = try await api.post(path, body)
                #expect(answer.status == 400, "\(path) \(body): \(answer.text)")
                #expect(try answer.code == code, "\(path) \(body): \(answer.text)")
            }
            for type in ["apns", "gcm", "web"] { #expect(try await tokens(api, cast[0], type).isEmpty) }
        }
    }

    @Test func aUserKeepsTheTwentyNewestOfEachTypeAndPagesThroughThem() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushcap", 1)
            for index in 0..<22 {
                let answer = try await api.post(
                    "/v3/users/\(cast[0])/push/apns", ["apns_device_token": Self.apnsToken(index)], as: cast.session(0))
                #expect(answer.status == 200)
            }
            #expect(try await api.post("/v3/users/\(cast[0])/push/gcm", ["gcm_reg_token": "other-type"]).status == 200)
            var seen: [String] = []
            var next = ""
            repeat {
                let page = try await api.get("/v3/users/\(cast[0])/push/apns?limit=6&token=\(next)", as: cast.session(0)).rawJSON
                seen += page["tokens"] as? [String] ?? []
                #expect(page["type"] as? String == "apns")
                next = page["next"] as? String ?? ""
            } while !next.isEmpty
            #expect(seen == (2..<22).reversed().map(Self.apnsToken), "the 20 newest, newest first, each once")
            #expect(try await tokens(api, cast[0], "gcm") == ["other-type"])
        }
    }

    @Test func webSubscriptionsAreKeyedByTheirEndpointAndTokensAreRemoved() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushweb", 1)
            let endpoint = "https://updates.push.services.mozilla.com/wpush/v2/\(UUID().uuidString)?x=1"
            let added = try await api.post(
                "/v3/users/\(cast[0])/push/web", ["web_push_subscription": Self.subscription(endpoint)], as: cast.session(0))
            #expect(added.status == 200 && added.rawJSON["token"] as? String == endpoint, "\(added.text)")
            #expect(try await api.post("/v3/users/\(cast[0])/push/gcm", ["gcm_reg_token": "fcm-a"], as: cast.session(0)).status == 200)
            let escaped = endpoint.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let removed = try await api.delete("/v3/users/\(cast[0])/push/web/\(escaped)", as: cast.session(0))
            #expect(removed.status == 200 && removed.rawJSON["token"] as? String == endpoint, "\(removed.text)")
            #expect(try await tokens(api, cast[0], "web").isEmpty)
            let all = try await api.delete("/v3/users/\(cast[0])/push", as: cast.session(0))
            #expect(all.rawJSON["token"] as? [String] == ["fcm-a"])
            #expect(try await tokens(api, cast[0], "gcm").isEmpty)
        }
    }

    /// Issue 50.5: a Web Push endpoint moves to another user only with the keys it has (the
    /// same browser, signed in as someone else); another user's keys cannot take it over, and
    /// its owner may give it new ones.
    @Test func aWebEndpointMovesOnlyWithItsOwnKeys() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushwebmove", 2)
            let endpoint = "https://updates.push.services.mozilla.com/wpush/v2/\(UUID().uuidString)"
            let victims = Self.subscription(endpoint)
            let path = { (user: Int) in "/v3/users/\(cast[user])/push/web" }
            #expect(try await api.post(path(0), ["web_push_subscription": victims], as: cast.session(0)).status == 200)
            let hijack = try await api.post(path(1), ["web_push_subscription": Self.subscription(endpoint)], as: cast.session(1))
            #expect(hijack.status == 403, "\(hijack.text)")
            #expect(try hijack.code == 400108)
            #expect(try await tokens(api, cast[0], "web") == [endpoint])
            #expect(try await tokens(api, cast[1], "web").isEmpty)
            // The owner renews the subscription's keys.
            let renewed = Self.subscription(endpoint)
            #expect(try await api.post(path(0), ["web_push_subscription": renewed], as: cast.session(0)).status == 200)
            // The same browser's subscription (its keys) moves to whoever signs in there.
            let moved = try await api.post(path(1), ["web_push_subscription": renewed], as: cast.session(1))
            #expect(moved.status == 200, "\(moved.text)")
            #expect(try await tokens(api, cast[0], "web").isEmpty)
            #expect(try await tokens(api, cast[1], "web") == [endpoint])
        }
    }

    @Test func theAdminTakesATokenFromItsOwnerAndADeletedUsersTokensGo() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushadmin", 2)
            #expect(try await api.post("/v3/users/\(cast[0])/push/huawei", ["huawei_device_token": "hms-1"]).status == 200)
            let taken = try await api.delete("/v3/push/device_tokens/huawei/hms-1")
            #expect(taken.status == 200 && taken.rawJSON["user_id"] as? String == cast[0])
            #expect(try await api.delete("/v3/push/device_tokens/huawei/hms-1").status == 404)
            #expect(try await api.get("/v3/push/device_tokens/huawei/hms-1").text == "[]")
            #expect(try await api.post("/v3/users/\(cast[1])/push/huawei", ["huawei_device_token": "hms-2"]).status == 200)
            #expect(try await api.delete("/v3/users/\(cast[1])").status == 200)
            #expect(try await api.get("/v3/push/device_tokens/huawei/hms-2").text == "[]")
        }
    }

    private func tokens(_ api: API, _ userID: String, _ type: String) async throws -> [String] {
        let answer = try await api.get("/v3/users/\(userID)/push/\(type)?limit=100")
        #expect(answer.status == 200, "\(answer.text)")
        return answer.rawJSON["tokens"] as? [String] ?? []
    }
}
