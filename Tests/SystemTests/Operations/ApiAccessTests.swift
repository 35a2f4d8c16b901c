import Foundation
import HTTPTypes
import OutboundPolicy
import ParleyContainer
import Testing

/// Secondary API tokens and the IP allow-list (API.md §14.7).
@Suite struct ApiAccessTests {
    static let tokens = "/v3/applications/api_tokens"

    @Test func aSecondaryTokenWorksAndARevokedOneStopsAtOnceOnEveryInstance() async throws {
        try await OwnDatabase.with { database in
            let process = try await ServerProcess(environment: ["DATABASE_URL": database])
            defer { process.stop() }
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                // Only the master token makes one, named in the body as Sendbird asks.
                #expect(try await api.post(Self.tokens).status == 403)
                #expect(try await api.post(Self.tokens, ["HTTP_API_TOKEN": "wrong"]).status == 403)
                let made = try await api.post(Self.tokens, ["HTTP_API_TOKEN": TestServer.apiToken])
                #expect(made.status == 200, "\(made.text)")
                let token = try #require(made.rawJSON["token"] as? String)
                #expect(token.count == 40 && token.allSatisfy(\.isHexDigit))
                // It is the admin here and on the other instance; it makes no tokens itself.
                #expect(try await api.get("/v3/users?limit=1", as: .apiToken(token)).status == 200)
                let there = try await process.request("GET", "/v3/users?limit=1", headers: ["Api-Token": token])
                #expect(there.status == 200)
                #expect(try await api.post(Self.tokens, ["HTTP_API_TOKEN": token], as: .apiToken(token)).status == 403)
                // Not even with the master token named in the body: only the master token's holder makes tokens.
                let multiplied = try await api.post(Self.tokens, ["HTTP_API_TOKEN": TestServer.apiToken], as: .apiToken(token))
                #expect(multiplied.status == 403, "\(multiplied.text)")
                // Listed and viewed by its selector; the secret is never shown again.
                let listed = try await api.get(Self.tokens).rawJSON["api_tokens"] as? [[String: Any]] ?? []
                #expect(listed.map { $0["token"] as? String } == [String(token.prefix(16))])
                #expect(try await api.get("\(Self.tokens)/\(token)").rawJSON["token"] as? String == String(token.prefix(16)))
                #expect(try await api.get("\(Self.tokens)/\(token.prefix(16))").status == 200)
                #expect(try await api.get("\(Self.tokens)/\(String(repeating: "0", count: 16))").status == 404)
                #expect(try await api.get("\(Self.tokens)/not-a-token").status == 404)
                // A token of the right shape with a wrong secret is refused.
                let forged = String(token.prefix(16)) + String(repeating: "a", count: 24)
                #expect(try await api.get("/v3/users?limit=1", as: .apiToken(forged)).code == 400401)
                // Revoked through the other instance, it stops here at once.
                let revoked = try await process.request("DELETE", "\(Self.tokens)/\(token)", headers: ["Api-Token": TestServer.apiToken])
                #expect(revoked.status == 200)
                #expect(try await api.get("/v3/users?limit=1", as: .apiToken(token)).code == 400401)
                #expect(try await api.delete("\(Self.tokens)/\(token)").status == 404)
            }
        }
    }

    @Test func theAllowListRefusesApiTokensFromAnyOtherAddress() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.trustedProxies = [IPNetwork("127.0.0.1")!]
            }) { api in
                let list = "/v3/applications/settings/ip_whitelist"
                let cast = try await api.cast("allow", 1)
                #expect(try await api.put(list, ["ip_whitelist_addresses": ["10.9.8.0/24", "bad"]]).code == 400111)
                #expect(try await api.put(list, ["ip_whitelist_addresses": []]).code == 400105)
                let set = try await api.put(list, ["ip_whitelist_addresses": ["10.9.8.0/24", "fd00::1"]])
                #expect(set.rawJSON["ip_whitelist_addresses"] as? [String] == ["10.9.8.0/24", "fd00::1"], "\(set.text)")
                func from(_ address: String) -> HTTPFields { [HTTPField.Name("X-Forwarded-For")!: address] }
                // The proxy's own address (no forwarded client) and addresses outside are refused.
                #expect(try await api.get("/v3/users?limit=1").status == 403)
                #expect(try await api.raw(.get, "/v3/users?limit=1", headers: from("10.9.9.1")).status == 403)
                #expect(try await api.raw(.get, "/v3/users?limit=1", headers: from("10.9.8.7")).status == 200)
                #expect(try await api.raw(.get, "/v3/users?limit=1", headers: from("fd00::1")).status == 200)
                #expect(try await api.raw(.get, "/metrics", headers: from("10.9.9.1")).status == 403)
                // Session tokens are not API tokens: they are not held to it.
                #expect(try await api.get("/v3/users/\(cast[0])", as: cast.session(0)).status == 200)
                let removed = try await api.raw(.delete, "\(list)?ip_whitelist_addresses=10.9.8.0/24,fd00::1", headers: from("10.9.8.7"))
                #expect(removed.rawJSON["ip_whitelist_addresses"] as? [String] == [], "\(removed.text)")
                #expect(try await api.get("/v3/users?limit=1").status == 200)
            }
        }
    }

    @Test func aClientThatIsNoTrustedProxyCannotClaimAnAllowedAddress() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let list = "/v3/applications/settings/ip_whitelist"
                #expect(try await api.put(list, ["ip_whitelist_addresses": ["10.9.8.7"]]).status == 200)
                let spoofed = try await api.raw(.get, "/v3/users?limit=1", headers: [HTTPField.Name("X-Forwarded-For")!: "10.9.8.7"])
                #expect(spoofed.status == 403)
                #expect(try await api.raw(.get, list, headers: [HTTPField.Name("Forwarded")!: "for=10.9.8.7"]).status == 403)
            }
        }
    }
}
