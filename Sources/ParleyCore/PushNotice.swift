import ByteCoding

/// What one recipient's push says (API.md §12.4), in Sendbird's shape so that apps' existing push
/// handlers work: the alert text from the recipient's template, the badge (their exact total
/// unread count), and the `sendbird` dictionary. Payloads are kept within a provider's limit by
/// shortening the message text, never by dropping fields.
public struct PushNotice: Sendable {
    public struct Channel: Sendable {
        public var url: String
        public var name: String
        public var customType: String
        /// Joined members: a channel of more than two shows its name as the alert's title.
        public var memberCount: Int

        public init(url: String, name: String, customType: String, memberCount: Int) {
            self.url = url
            self.name = name
            self.customType = customType
            self.memberCount = memberCount
        }
    }

    public struct Recipient: Sendable {
        public var userID: String
        public var nickname: String
        public var unreadMessageCount: Int
        public var template: PushTemplate
        public var sound: String
        /// The message's file as the recipient downloads it (with their own auth key).
        public var fileURL: String?

        public init(userID: String, nickname: String, unreadMessageCount: Int, template: PushTemplate, sound: String, fileURL: String?) {
            self.userID = userID
            self.nickname = nickname
            self.unreadMessageCount = unreadMessageCount
            self.template = template
            self.sound = sound
            self.fileURL = fileURL
        }
    }

    /// Apple's and Google's payload limit; Web Push gets what is left after encryption's overhead.
    public static let providerLimit = 4096
    /// RFC 8291's record overhead: the header (86 bytes with a 65-byte key), the tag and the delimiter.
    public static let webPushLimit = 4096 - 86 - 16 - 1

    public let message: Message
    public let channel: Channel
    public let recipient: Recipient
    public let appID: String

    public init(message: Message, channel: Channel, recipient: Recipient, appID: String) {
        self.message = message
        self.channel = channel
        self.recipient = recipient
        self.appID = appID
    }

    /// The alert's title: the channel's name in a group of more than two, else none.
    public var title: String? {
        channel.memberCount > 2 && !channel.name.isEmpty ? channel.name : nil
    }

    /// The alert's text, from the recipient's template.
    public func alert(messageText: String) -> String {
        recipient.template.render(
            message.type,
            PushTemplate.Values(
                senderName: message.sender?.nickname ?? "", message: messageText, fileName: message.file?.name ?? "",
                channelName: channel.name))
    }

    /// APNs: `aps` and the `sendbird` dictionary, as sent (APNs measures the body).
    public func apnsPayload(limit: Int = providerLimit) -> [UInt8] {
        fitted(limit) { text -> [UInt8] in
            var json = JSONWriter()
            json.object { json in
                json.key("aps")
                json.object { aps in
                    aps.key("alert")
                    aps.object { alert in
                        if let title { alert.field("title", title) }
                        alert.field("body", self.alert(messageText: text))
                    }
                    aps.field("badge", recipient.unreadMessageCount)
                    if !recipient.sound.isEmpty { aps.field("sound", recipient.sound) }
                    if message.file?.thumbnails.isEmpty == false { aps.field("mutable-content", 1) }
                    aps.field("thread-id", channel.url)
                }
                json.key("sendbird")
                writeDictionary(&json, text: text)
            }
            return json.bytes
        }
    }

    /// How a provider's request carries a data message (`dataMessage`), and so what it measures.
    public enum DataForm: Sendable {
        /// FCM: `data` is a JSON object of string fields.
        case object
        /// HMS: `data` is that object written as one JSON string (escaped once more).
        case string
    }

    /// FCM and HMS: a data message's two fields, the alert text and the dictionary as a JSON
    /// string, with the text cut so that `data` as the request carries it (`form`: keys, quotes
    /// and every escape counted, the text twice over: in the alert and in the dictionary) stays
    /// within `limit` (issue 50.8: counting the fields' raw bytes let non-ASCII texts with
    /// escapes pass 4,096 as sent).
    public func dataMessage(limit: Int = providerLimit, form: DataForm = .object) -> (message: String, sendbird: String) {
        fitted(limit) { text -> ([UInt8], (message: String, sendbird: String)) in
            let alertText = alert(messageText: text)
            var dictionary = JSONWriter()
            writeDictionary(&dictionary, text: text)
            let sendbird = String(decoding: dictionary.bytes, as: UTF8.self)
            var data = JSONWriter()
            data.object { data in
                data.field("message", alertText)
                data.field("sendbird", sendbird)
            }
            var sent = data.bytes
            if form == .string {
                var quoted = JSONWriter()
                quoted.string(String(decoding: sent, as: UTF8.self))
                sent = quoted.bytes
            }
            return (sent, (alertText, sendbird))
        }
    }

    /// Web Push: the plaintext a browser's service worker receives (`message`, `title` and the
    /// `sendbird` dictionary as an object).
    public func webPayload(limit: Int = webPushLimit) -> [UInt8] {
        fitted(limit) { text -> [UInt8] in
            var json = JSONWriter()
            json.object { json in
                json.field("message", alert(messageText: text))
                if let title { json.field("title", title) }
                json.key("sendbird")
                writeDictionary(&json, text: text)
            }
            return json.bytes
        }
    }

    private func fitted(_ limit: Int, _ build: (String) -> [UInt8]) -> [UInt8] {
        fitted(limit) { text in
            let bytes = build(text)
            return (bytes, bytes)
        }
    }

    /// What `build` makes of the message text as long as fits: `build` gives the bytes the
    /// provider measures and the value to send; the longest prefix (in characters, so never a
    /// broken one) whose bytes fit in `limit`, with an ellipsis, found by bisection (escaping
    /// makes a character cost one to twelve bytes, twice over).
    private func fitted<Value>(_ limit: Int, _ build: (String) -> (measured: [UInt8], value: Value)) -> Value {
        let text = message.type == .file ? (message.file?.name ?? "") : message.message
        let whole = build(text)
        guard whole.measured.count > limit else { return whole.value }
        let characters = Array(text)
        // Every character costs at least a byte, so no longer prefix than `limit` can fit.
        var (fits, tooLong) = (0, min(characters.count, limit))
        var best = build("…").value
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            let payload = build(String(characters[..<middle]) + "…")
            if payload.measured.count <= limit {
                (fits, best) = (middle, payload.value)
            } else {
                tooLong = middle
            }
        }
        return best
    }

    private func writeDictionary(_ json: inout JSONWriter, text: String) {
        json.object { sb in
            sb.field("category", "messaging:offline_notification")
            sb.field("type", message.type.rawValue)
            sb.field("message_id", message.messageID)
            sb.field("message", text)
            sb.field("custom_type", message.customType)
            sb.field("created_at", message.createdAt)
            sb.key("channel")
            sb.object { channelJSON in
                channelJSON.field("channel_url", channel.url)
                channelJSON.field("name", channel.name)
                channelJSON.field("custom_type", channel.customType)
            }
            sb.field("channel_type", channel.memberCount > 2 ? "group_messaging" : "messaging")
            if let sender = message.sender {
                sb.key("sender")
                sb.object { senderJSON in
                    senderJSON.field("id", sender.userID)
                    senderJSON.field("name", sender.nickname)
                    senderJSON.field("profile_url", sender.profileURL)
                }
            }
            sb.key("recipient")
            sb.object { recipientJSON in
                recipientJSON.field("id", recipient.userID)
                recipientJSON.field("name", recipient.nickname)
            }
            sb.field("unread_message_count", recipient.unreadMessageCount)
            if let file = message.file {
                sb.key("files")
                sb.array { files in
                    files.object { fileJSON in
                        fileJSON.field("url", recipient.fileURL ?? file.url ?? "")
                        fileJSON.field("name", file.name)
                        fileJSON.field("type", file.type)
                        fileJSON.field("size", file.size)
                        fileJSON.field("require_auth", file.requireAuth)
                    }
                }
            }
            sb.field("push_title", title ?? "")
            sb.field("push_sound", recipient.sound)
            sb.field("app_id", appID)
        }
    }
}
