import Foundation
import Testing

extension PushWithProviders {
    /// Pushes as the providers receive them (API.md §12.4–12.6), through the stand-in that speaks
    /// their protocols: APNs over HTTP/2 with an ES256 provider token, FCM's OAuth flow and
    /// `messages:send`, HMS, and Web Push decrypted with the subscription's key and its VAPID token
    /// checked.
    @Suite struct PushDeliveryTests: PushFixtures {
        @Test func everyProviderGetsThePushInSendbirdsShape() async throws {
            try await Self.withPushServer { api, standIn, _ in
                let cast = try await api.cast("pushall", 3)
                let channel = try await api.createChannel([
                    "user_ids": [cast[0], cast[1], cast[2]], "name": "Climbers", "custom_type": "club"
                ])
                let apns = Self.apnsToken()
                let fcm = "fcm-\(UUID().uuidString)"
                let hms = "hms-\(UUID().uuidString)"
                let subscription = try await standIn.webSubscription()
                try await Self.register(api, cast, 1, "apns", apns)
                try await Self.register(api, cast, 1, "gcm", fcm)
                try await Self.register(api, cast, 2, "huawei", hms)
                try await Self.register(api, cast, 2, "web", subscription)
                let id = try await Self.send(api, channel, "first ascent", as: cast.session(0))

                #expect(try await eventually(within: .seconds(20)) { try await standIn.accepted("apns", token: apns).count == 1 })
                let push = try #require(try await standIn.accepted("apns", token: apns).first)
                #expect(push["http_version"] as? String == "2")
                let aps = Self.aps(push)
                let alert = aps["alert"] as? [String: Any]
                #expect(alert?["title"] as? String == "Climbers")
                #expect(alert?["body"] as? String == "\(cast[0]): first ascent")
                #expect(aps["badge"] as? Int == 1, "the badge is the recipient's unread count")
                #expect(aps["thread-id"] as? String == channel)
                let sendbird = Self.sendbird(push)
                #expect(sendbird["message_id"] as? Int == id)
                #expect(sendbird["type"] as? String == "MESG")
                #expect((sendbird["recipient"] as? [String: Any])?["id"] as? String == cast[1])
                #expect((sendbird["sender"] as? [String: Any])?["id"] as? String == cast[0])
                #expect((sendbird["channel"] as? [String: Any])?["custom_type"] as? String == "club")
                let headers = push["headers"] as? [String: String] ?? [:]
                #expect(headers["apns-topic"] == standIn.handshake.apns_topic)
                #expect(headers["apns-collapse-id"] == channel)

                #expect(try await eventually(within: .seconds(20)) { try await standIn.accepted("fcm", token: fcm).count == 1 })
                let fcmPush = try #require(try await standIn.accepted("fcm", token: fcm).first)
                let message = (fcmPush["payload"] as? [String: Any])?["message"] as? [String: Any]
                let data = message?["data"] as? [String: String]
                #expect(data?["message"] == "\(cast[0]): first ascent")
                let dictionary = try JSONSerialization.jsonObject(with: Data((data?["sendbird"] ?? "").utf8)) as? [String: Any]
                #expect(dictionary?["message_id"] as? Int == id)
                #expect((message?["android"] as? [String: Any])?["priority"] as? String == "high")

                #expect(try await eventually(within: .seconds(20)) { try await standIn.accepted("hms", token: hms).count == 1 })
                let hmsPush = try #require(try await standIn.accepted("hms", token: hms).first)
                #expect((hmsPush["payload"] as? [String: Any])?["message"] as? String == "\(cast[0]): first ascent")

                // The stand-in names a subscription by the last part of its endpoint.
                let subscriptionID = try #require((subscription["endpoint"] as? String)?.split(separator: "/").last.map(String.init))
                #expect(try await eventually(within: .seconds(20)) { try await standIn.accepted("web", token: subscriptionID).count == 1 })
                let webPush = try #require(try await standIn.accepted("web", token: subscriptionID).first)
                let decrypted = webPush["payload"] as? [String: Any]
                #expect(decrypted?["message"] as? String == "\(cast[0]): first ascent")
                #expect((decrypted?["sendbird"] as? [String: Any])?["message_id"] as? Int == id)

                // Nobody else was pushed: not the sender, and each device once; APNs over one connection.
                try await Task.sleep(for: .milliseconds(300))
                let everything =
                    try await standIn.received("apns") + standIn.received("fcm") + standIn.received("hms") + standIn.received("web")
                let mine = everything.filter {
                    ((Self.sendbird($0)["channel"] as? [String: Any])?["channel_url"] as? String) == channel
                        || ($0["token"] as? String).map { [fcm, hms, subscriptionID].contains($0) } == true
                }
                #expect(mine.count == 4, "\(mine.count) pushes")
                let connections = Set(try await standIn.accepted("apns", token: apns).compactMap { $0["connection"] as? String })
                #expect(connections.count == 1)
            }
        }

        @Test func theBadgeIsTheExactUnreadCountAndFileLinksCarryTheRecipientsKey() async throws {
            try await Self.withPushServer { api, standIn, _ in
                let cast = try await api.cast("pushbadge", 2)
                let first = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let second = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let token = Self.apnsToken()
                try await Self.register(api, cast, 1, "apns", token)
                // Each push's badge is the unread count when it is sent: each waits for the one before.
                for (count, (channel, text)) in [(first, "one"), (second, "two"), (first, "three")].enumerated() {
                    try await Self.send(api, channel, text, as: cast.session(0))
                    #expect(
                        try await eventually(within: .seconds(20)) { try await standIn.accepted("apns", token: token).count == count + 1 })
                }
                let badges = try await standIn.accepted("apns", token: token).map {
                    (Self.sendbird($0)["message"] as? String ?? "", Self.aps($0)["badge"] as? Int ?? -1)
                }
                #expect(Dictionary(uniqueKeysWithValues: badges) == ["one": 1, "two": 2, "three": 3])

                // A file message: its name in the alert, and a link that downloads with the recipient's own key.
                let upload = try await api.upload(
                    first, ["message_type": "FILE"],
                    file: FormFile(fileName: "topo.txt", contentType: "text/plain", bytes: Array("route topo".utf8)),
                    as: cast.session(0))
                #expect(upload.status == 201, "\(upload.text)")
                #expect(try await eventually(within: .seconds(20)) { try await standIn.accepted("apns", token: token).count == 4 })
                let push = try #require(
                    try await standIn.accepted("apns", token: token).first { Self.sendbird($0)["type"] as? String == "FILE" })
                #expect((Self.aps(push)["alert"] as? [String: Any])?["body"] as? String == "\(cast[0]): topo.txt")
                let link = try #require((Self.sendbird(push)["files"] as? [[String: Any]])?.first?["url"] as? String)
                #expect(link.contains("?auth="))
                let path = try #require(URL(string: link)).path + "?" + (URL(string: link)?.query ?? "")
                let download = try await api.get(path, as: .none)
                #expect(download.status == 200)
                #expect(download.text == "route topo")
            }
        }
    }
}
