import Crypto
import Foundation
import Testing

/// Bots (API.md §14.8): a bot hears its channels' messages at its callback URL, signed, at least
/// once, from the webhook queue (also with the application's webhook off), and answers in the
/// channel; its callback URL passes the outbound guard.
@Suite struct BotTests: WebhookFixtures {
    static func withReceiver(_ body: @escaping @Sendable (API, WebhookReceiver, String) async throws -> Void) async throws {
        try await withReceiver { api, receiver, url, _ in try await body(api, receiver, url) }
    }

    static func createBot(_ api: API, _ id: String, callback: String, privacy: Bool = false, extra: [String: Any] = [:]) async throws
        -> [String: Any]
    {
        var body: [String: Any] = [
            "bot_userid": id, "bot_nickname": "Helper \(id)", "bot_profile_url": "https://example.com/\(id).png", "bot_type": "helper",
            "bot_callback_url": callback, "is_privacy_mode": privacy
        ]
        body.merge(extra) { $1 }
        let created = try await api.post("/v3/bots", body)
        #expect(created.status == 200, "\(created.text)")
        return created.rawJSON
    }

    static func bodies(_ receiver: WebhookReceiver, bot: String) -> [[String: Any]] {
        receiver.received.map(\.json).filter { ($0["bot"] as? [String: Any])?["bot_userid"] as? String == bot }
    }

    @Test func aBotHearsItsChannelSignedAndAnswersInIt() async throws {
        try await Self.withReceiver { api, receiver, callback in
            let created = try await Self.createBot(api, "helper", callback: callback, extra: ["show_member": true])
            let token = try #require((created["bot"] as? [String: Any])?["bot_token"] as? String)
            #expect(token.hasPrefix("whsec_"))
            #expect(created["bot_callback_url"] as? String == callback)
            #expect((try await api.get("/v3/bots/helper").rawJSON["bot"] as? [String: Any])?["bot_type"] as? String == "helper")
            #expect((try await api.get("/v3/bots").rawJSON["bots"] as? [[String: Any]])?.count == 1)
            // The bot is a user like any other.
            #expect(try await api.get("/v3/users/helper").rawJSON["nickname"] as? String == "Helper helper")

            let cast = try await api.cast("bt", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "is_public": false])
            let joined = try await api.post("/v3/bots/helper/channels", ["channel_urls": [channel]])
            #expect(joined.status == 200, "\(joined.text)")
            #expect((joined.rawJSON["channels"] as? [[String: Any]])?.first?["member_count"] as? Int == 3)

            let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "hello bot"], as: cast.session(0))
            #expect(sent.status == 201)
            #expect(try await eventually { !Self.bodies(receiver, bot: "helper").isEmpty })
            let delivery = try #require(receiver.received.first)
            #expect(Self.verifies(delivery, secret: token))
            let sendbird = HMAC<SHA256>.authenticationCode(
                for: Data(delivery.body.utf8), using: SymmetricKey(data: Data(TestServer.apiToken.utf8)))
            #expect(delivery.headers["x-sendbird-signature"] == sendbird.map { String(format: "%02x", $0) }.joined())
            let json = delivery.json
            #expect(json["category"] as? String == "bot_message_notification")
            #expect((json["message"] as? [String: Any])?["message"] as? String == "hello bot")
            #expect((json["sender"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((json["channel"] as? [String: Any])?["channel_url"] as? String == channel)
            #expect(
                Set((json["members"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String } ?? []) == [cast[0], cast[1], "helper"])
            #expect(!delivery.body.contains(token))

            // The answer appears in the channel, and the bot does not hear itself.
            let answer = try await api.post("/v3/bots/helper/send", ["channel_url": channel, "message": "hi, how can I help?"])
            #expect(answer.status == 200, "\(answer.text)")
            #expect((answer.rawJSON["user"] as? [String: Any])?["user_id"] as? String == "helper")
            let history = try await api.get(
                "/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max / 2)&prev_limit=5", as: cast.session(1))
            #expect((history.rawJSON["messages"] as? [[String: Any]])?.last?["message"] as? String == "hi, how can I help?")
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "thanks"], as: cast.session(1))
            #expect(try await eventually { Self.bodies(receiver, bot: "helper").count >= 2 })
            let heard = Set(Self.bodies(receiver, bot: "helper").compactMap { ($0["message"] as? [String: Any])?["message"] as? String })
            #expect(heard == ["hello bot", "thanks"])

            // The delivery log names the bot.
            let log = try await api.get("/v3/applications/settings/webhook/deliveries?status=delivered")
            #expect((log.rawJSON["deliveries"] as? [[String: Any]])?.contains { $0["bot_userid"] as? String == "helper" } == true)
        }
    }

    @Test func privacyModeForwardsOnlyCommandsAndMentions() async throws {
        try await Self.withReceiver { api, receiver, callback in
            _ = try await Self.createBot(api, "quiet", callback: callback, privacy: true)
            let cast = try await api.cast("bp", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            #expect(try await api.post("/v3/bots/quiet/channels", ["channel_urls": [channel]]).status == 200)
            let messages: [[String: Any]] = [
                ["message": "just chatting"], ["message": "/weather Berlin"],
                ["message": "hey quiet, help", "mentioned_user_ids": ["quiet"]], ["message": "last words"]
            ]
            for message in messages {
                #expect(try await api.post("/v3/group_channels/\(channel)/messages", message, as: cast.session(0)).status == 201)
            }
            #expect(try await eventually { Self.bodies(receiver, bot: "quiet").count >= 2 })
            // The unforwarded ones were written before the forwarded ones: had they been queued, they would be here.
            try await Task.sleep(for: .milliseconds(300))
            let heard = Set(Self.bodies(receiver, bot: "quiet").compactMap { ($0["message"] as? [String: Any])?["message"] as? String })
            #expect(heard == ["/weather Berlin", "hey quiet, help"])
        }
    }

    /// A failing callback is retried until it answers (at least once); a bot that left hears nothing more.
    @Test func aFailingCallbackIsRetriedAndLeavingStopsDeliveries() async throws {
        try await Self.withReceiver { api, receiver, callback in
            _ = try await Self.createBot(api, "retry", callback: callback)
            let cast = try await api.cast("br", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            #expect(try await api.post("/v3/bots/retry/channels", ["channel_urls": [channel]]).status == 200)
            receiver.script([.status(503), .status(500)])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "persist"], as: cast.session(0))
            #expect(try await eventually(within: .seconds(30)) { Self.bodies(receiver, bot: "retry").count >= 3 })
            #expect(Set(receiver.received.compactMap { $0.headers["webhook-id"] }).count == 1)
            #expect(try await api.delete("/v3/bots/retry/channels/\(channel)").status == 200)
            let members = try await api.get("/v3/group_channels/\(channel)/members")
            #expect((members.rawJSON["members"] as? [[String: Any]])?.contains { $0["user_id"] as? String == "retry" } == false)
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "after leaving"], as: cast.session(0))
            try await Task.sleep(for: .milliseconds(400))
            #expect(
                !Self.bodies(receiver, bot: "retry").contains {
                    ($0["message"] as? [String: Any])?["message"] as? String == "after leaving"
                })
        }
    }

    @Test func badRequestsChangeNothing() async throws {
        try await Self.withReceiver { api, _, callback in
            // A callback the outbound guard refuses (another port of loopback, a private address).
            for refused in ["http://127.0.0.1:1/hook", "http://10.1.2.3/hook", "ftp://example.com/x"] {
                let answer = try await api.post(
                    "/v3/bots",
                    [
                        "bot_userid": "nope", "bot_nickname": "n", "bot_profile_url": "", "bot_type": "t", "bot_callback_url": refused,
                        "is_privacy_mode": false
                    ])
                #expect(answer.status == 400, "\(refused): \(answer.text)")
                #expect(try answer.code == 400111)
            }
            #expect(try await api.get("/v3/users/nope").status == 404)
            let missing = try await api.post("/v3/bots", ["bot_userid": "nope", "bot_nickname": "n", "bot_callback_url": callback])
            #expect(missing.status == 400)
            #expect(try missing.code == 400105)
            _ = try await Self.createBot(api, "dup", callback: callback)
            #expect(
                try await api.post(
                    "/v3/bots",
                    ["bot_userid": "dup", "bot_nickname": "n", "bot_type": "t", "bot_callback_url": callback, "is_privacy_mode": false]
                ).status == 409)
            let cast = try await api.cast("bb", 2)
            // Only the admin.
            #expect(try await api.get("/v3/bots", as: cast.session(0)).status == 403)
            #expect(try await api.post("/v3/bots/dup/send", ["channel_url": "x", "message": "m"], as: cast.session(0)).status == 403)
            // Unknown bot, unknown channel, a channel the bot is not in.
            #expect(try await api.get("/v3/bots/ghost").status == 404)
            #expect(try await api.get("/v3/bots/\(cast[0])").status == 404)
            #expect(try await api.post("/v3/bots/dup/channels", ["channel_urls": ["no-such-channel"]]).status == 404)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let outsider = try await api.post("/v3/bots/dup/send", ["channel_url": channel, "message": "hi"])
            #expect(outsider.status == 403 || outsider.status == 400, "\(outsider.text)")
            let history = try await api.get("/v3/group_channels/\(channel)/messages?message_ts=\(Int64.max / 2)&prev_limit=5")
            #expect((history.rawJSON["messages"] as? [[String: Any]])?.isEmpty == true)
            // Deleting the bot deletes its user.
            #expect(try await api.delete("/v3/bots/dup").status == 200)
            #expect(try await api.get("/v3/users/dup").status == 404)
            #expect(try await api.get("/v3/bots/dup").status == 404)
        }
    }
}
