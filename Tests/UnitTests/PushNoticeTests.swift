import Foundation
import ParleyCore
import Testing

/// What a push says (API.md §12.4): Sendbird's shape, the badge, the title rule, and the 4 KiB
/// limit kept by shortening the text.
@Suite struct PushNoticeTests {
    let template = PushTemplate(
        name: .default, userMessage: "{sender_name}: {message}", fileMessage: "{sender_name}: {filename}", adminMessage: "{message}")

    func notice(_ text: String = "hello", type: MessageType = .user, members: Int = 2, file: FileAttachment? = nil) -> PushNotice {
        var message = Message(
            messageID: 42, type: type, channelURL: "group_1",
            sender: BasicUser(userID: "ann", nickname: "Ann", profileURL: "https://p/a", isActive: true),
            message: text, customType: "note", data: "", mentionType: .users, mentionedUserIDs: [], sortedMetaarray: [], isOpMsg: false,
            silent: false, createdAt: 1_700_000_000_000, updatedAt: 0, isRemoved: false, dedupID: nil)
        message.file = file
        return PushNotice(
            message: message, channel: PushNotice.Channel(url: "group_1", name: "Climbers", customType: "club", memberCount: members),
            recipient: PushNotice.Recipient(
                userID: "bob", nickname: "Bob", unreadMessageCount: 7, template: template, sound: "ding.caf",
                fileURL: file == nil ? nil : "https://chat.example/v3/files/f1?auth=KEY-OF-BOB"),
            appID: "app-1")
    }

    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func apnsPayloadHasSendbirdsShape() throws {
        let payload = try object(notice().apnsPayload())
        let aps = try #require(payload["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["body"] as? String == "Ann: hello")
        #expect(alert["title"] == nil)  // a 1-to-1 channel has no title
        #expect(aps["badge"] as? Int == 7)
        #expect(aps["sound"] as? String == "ding.caf")
        #expect(aps["thread-id"] as? String == "group_1")
        #expect(aps["mutable-content"] == nil)
        let sendbird = try #require(payload["sendbird"] as? [String: Any])
        #expect(sendbird["type"] as? String == "MESG")
        #expect(sendbird["message_id"] as? Int == 42)
        #expect(sendbird["message"] as? String == "hello")
        #expect(sendbird["unread_message_count"] as? Int == 7)
        #expect((sendbird["channel"] as? [String: String]) == ["channel_url": "group_1", "name": "Climbers", "custom_type": "club"])
        #expect((sendbird["sender"] as? [String: String]) == ["id": "ann", "name": "Ann", "profile_url": "https://p/a"])
        #expect((sendbird["recipient"] as? [String: String]) == ["id": "bob", "name": "Bob"])
        #expect(sendbird["app_id"] as? String == "app-1")
        #expect(sendbird["channel_type"] as? String == "messaging")
    }

    @Test func groupsOfMoreThanTwoShowTheChannelNameAsTitle() throws {
        let payload = try object(notice(members: 3).apnsPayload())
        #expect(((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == "Climbers")
    }

    @Test func aFileMessageShowsItsNameAndTheRecipientsOwnLink() throws {
        let file = FileAttachment(
            fileID: "f1", name: "cat.jpg", type: "image/jpeg", size: 1234, requireAuth: true,
            thumbnails: [ThumbnailInfo(width: 100, height: 100, realWidth: 100, realHeight: 80, type: "image/jpeg", size: 900)])
        let payload = try object(notice(type: .file, file: file).apnsPayload())
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: Any])?["body"] as? String == "Ann: cat.jpg")
        #expect(aps["mutable-content"] as? Int == 1)
        let files = try #require((payload["sendbird"] as? [String: Any])?["files"] as? [[String: Any]])
        #expect(files.first?["url"] as? String == "https://chat.example/v3/files/f1?auth=KEY-OF-BOB")
        #expect(files.first?["name"] as? String == "cat.jpg")
    }

    @Test func dataMessagesCarryTheDictionaryAsAString() throws {
        let (message, sendbird) = notice().dataMessage()
        #expect(message == "Ann: hello")
        let dictionary = try object(Array(sendbird.utf8))
        #expect(dictionary["message_id"] as? Int == 42)
    }

    @Test(arguments: [
        String(repeating: "a", count: 10_000), String(repeating: "é", count: 5_000), String(repeating: "\"", count: 6_000),
        String(repeating: "👩‍👩‍👧", count: 2_000), String(repeating: "中", count: 4_800), String(repeating: "ü\"\\", count: 1_600)
    ])
    func longMessagesAreShortenedToFit(_ text: String) throws {
        let apns = notice(text).apnsPayload()
        #expect(apns.count <= PushNotice.providerLimit)
        let sendbird = try #require(try object(apns)["sendbird"] as? [String: Any])
        let shortened = try #require(sendbird["message"] as? String)
        // Shortened, not emptied: the longest prefix that fits.
        #expect(shortened.hasSuffix("…"), "not shortened")
        #expect(apns.count > PushNotice.providerLimit - 100, "cut to \(apns.count) bytes")
        #expect(text.hasPrefix(shortened.dropLast()), "not a prefix")
        // Issue 50.8: what each provider measures, as sent, written here by Foundation's own
        // serializer. FCM: the `data` object, its strings escaped; HMS: that object once more as
        // a JSON string.
        for form in [PushNotice.DataForm.object, .string] {
            let (message, dictionary) = notice(text).dataMessage(form: form)
            let options: JSONSerialization.WritingOptions = [.withoutEscapingSlashes, .fragmentsAllowed]
            var sent = try JSONSerialization.data(withJSONObject: ["message": message, "sendbird": dictionary], options: options)
            if form == .string {
                sent = try JSONSerialization.data(withJSONObject: String(decoding: sent, as: UTF8.self), options: options)
            }
            #expect(sent.count <= PushNotice.providerLimit, "\(form): \(sent.count) bytes as sent")
            #expect(sent.count > PushNotice.providerLimit - 200, "\(form): cut to \(sent.count) bytes")
            #expect(try object(Array(dictionary.utf8))["message"] as? String == message.dropFirst("Ann: ".count).description)
        }
        #expect(notice(text).webPayload().count <= PushNotice.webPushLimit)
    }
}
