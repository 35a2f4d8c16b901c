import Foundation
import Testing

/// Message moderation by channel custom type (API.md §14.7, `settings_global/{custom_type}`):
/// domain and profanity filters mask or block what they match in user messages and edits;
/// `*` holds the application's filters; repeated hits mute, kick or ban.
@Suite struct MessageFilterTests {
    static func settings(_ type: String) -> String { "/v3/applications/settings_global/\(type)" }

    static func send(_ api: API, _ channel: String, _ text: String, as credential: Credential) async throws -> APIResponse {
        try await api.post("/v3/group_channels/\(channel)/messages", ["message": text], as: credential)
    }

    @Test func profanityIsMaskedOrBlockedInChannelsOfTheType() async throws {
        try await TestServer.withAPI { api in
            let type = "kids-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("mf", 2)
            let filtered = try await api.createChannel(["user_ids": [cast[0], cast[1]], "custom_type": type])
            let other = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let set = try await api.put(Self.settings(type), ["profanity_filter": ["keywords": ["darn", "*heck"], "type": 2]])
            #expect(set.status == 200, "\(set.text)")
            #expect((set.rawJSON["profanity_filter"] as? [String: Any])?["keywords"] as? [String] == ["darn", "*heck"])

            let sent = try await Self.send(api, filtered, "Darn it, what the superheck, darnation", as: cast.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            #expect(sent.rawJSON["message"] as? String == "**** it, what the *********, darnation")
            let elsewhere = try await Self.send(api, other, "darn", as: cast.session(0))
            #expect(elsewhere.rawJSON["message"] as? String == "darn")
            // Edits pass the filter too.
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            let edited = try await api.put("/v3/group_channels/\(filtered)/messages/\(id)", ["message": "oh heck"], as: cast.session(0))
            #expect(edited.rawJSON["message"] as? String == "oh ****")

            #expect(try await api.put(Self.settings(type), ["profanity_filter": ["type": 1]]).status == 200)
            let blocked = try await Self.send(api, filtered, "darn", as: cast.session(0))
            #expect(blocked.status == 403)
            #expect(try blocked.code == 900060)
            let history = try await api.get("/v3/group_channels/\(filtered)/messages?message_ts=\(Int64.max / 2)&prev_limit=10")
            #expect((history.rawJSON["messages"] as? [[String: Any]])?.count == 1)
            #expect(try await Self.send(api, filtered, "all fine", as: cast.session(0)).status == 201)
        }
    }

    @Test func domainsAndExpressionsAreMatched() async throws {
        try await TestServer.withAPI { api in
            let type = "shop-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("md", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "custom_type": type])
            let set = try await api.put(
                Self.settings(type),
                [
                    "domain_filter": ["domains": ["Spam.example"], "type": 2],
                    "profanity_filter": ["regex_filters": [["regex": "[0-9]{4}-[0-9]{4}"]], "type": 2]
                ])
            #expect(set.status == 200, "\(set.text)")
            let sent = try await Self.send(
                api, channel, "visit www.spam.example/deal or nospam.example, card 1234-5678", as: cast.session(0))
            #expect(sent.rawJSON["message"] as? String == "visit ****************/deal or nospam.example, card *********")
            #expect(try await api.put(Self.settings(type), ["domain_filter": ["type": 1]]).status == 200)
            #expect(try await Self.send(api, channel, "see spam.example", as: cast.session(0)).status == 403)
        }
    }

    /// `*` is the application's: it applies where a type has no settings, and beside a type's
    /// own where they say `should_check_global`.
    @Test func theApplicationsFiltersAndShouldCheckGlobal() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let cast = try await api.cast("mg", 2)
                let plain = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let typed = try await api.createChannel(["user_ids": [cast[0], cast[1]], "custom_type": "typed"])
                #expect(try await api.put(Self.settings("*"), ["profanity_filter": ["keywords": ["global"], "type": 2]]).status == 200)
                #expect(try await api.put(Self.settings("typed"), ["profanity_filter": ["keywords": ["local"], "type": 2]]).status == 200)
                #expect(
                    try await Self.send(api, plain, "global local", as: cast.session(0)).rawJSON["message"] as? String == "****** local")
                #expect(
                    try await Self.send(api, typed, "global local", as: cast.session(0)).rawJSON["message"] as? String == "global *****")
                #expect(try await api.put(Self.settings("typed"), ["profanity_filter": ["should_check_global": true]]).status == 200)
                #expect(
                    try await Self.send(api, typed, "global local", as: cast.session(0)).rawJSON["message"] as? String == "****** *****")
                // Admin messages are the admin's.
                let admin = try await api.post("/v3/group_channels/\(plain)/messages", ["message_type": "ADMM", "message": "global"])
                #expect(admin.rawJSON["message"] as? String == "global")
            }
        }
    }

    @Test func repeatedHitsMuteTheSender() async throws {
        try await TestServer.withAPI { api in
            let type = "strict-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("ms", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "custom_type": type])
            let set = try await api.put(
                Self.settings(type),
                [
                    "profanity_filter": ["keywords": ["rude"], "type": 2],
                    "profanity_triggered_moderation": ["count": 2, "duration": 60, "action": 1]
                ])
            #expect(set.status == 200, "\(set.text)")
            #expect(try await Self.send(api, channel, "rude", as: cast.session(0)).status == 201)
            #expect(try await Self.send(api, channel, "kind words", as: cast.session(0)).status == 201)
            #expect(try await Self.send(api, channel, "rude again", as: cast.session(0)).status == 201)
            let muted = try await Self.send(api, channel, "hello", as: cast.session(0))
            #expect(muted.status == 403)
            #expect(try muted.code == 900041)
            // The other member is not concerned.
            #expect(try await Self.send(api, channel, "hello", as: cast.session(1)).status == 201)
        }
    }

    @Test func badSettingsChangeNothing() async throws {
        try await TestServer.withAPI { api in
            let type = "bad-\(UUID().uuidString.prefix(6))"
            let cast = try await api.cast("mb", 1)
            let bodies: [[String: Any]] = [
                ["profanity_filter": ["type": 5]], ["profanity_filter": ["regex_filters": [["regex": "("]], "type": 2]],
                ["domain_filter": ["domains": ["not a domain"], "type": 1]], ["image_moderation": ["type": 1]],
                ["profanity_triggered_moderation": ["count": 0, "duration": 10, "action": 1]],
                ["profanity_triggered_moderation": ["action": 9]], ["profanity_filter": ["keywords": ["*"], "type": 2]],
                ["profanity_filter": ["keywords": "darn"]]
            ]
            for body in bodies {
                let answer = try await api.put(Self.settings(type), body)
                #expect(answer.status == 400, "\(body): \(answer.text)")
            }
            #expect(try await api.put(Self.settings(type), ["profanity_filter": ["type": 2]], as: cast.session(0)).status == 403)
            let channel = try await api.createChannel(["user_ids": [cast[0]], "custom_type": type])
            #expect(try await Self.send(api, channel, "anything (", as: cast.session(0)).rawJSON["message"] as? String == "anything (")
        }
    }
}
