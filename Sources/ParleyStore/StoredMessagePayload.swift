import ByteCoding
import ParleyCore

/// The stored text of a `message` event payload (`events.data`), written with `JSONWriter`: it is
/// the form `EventPayload`'s Codable conformance reads (`{"message":{"_0":{…}}}`, the members of
/// `Message.CodingKeys`, absent optionals left out), made without `JSONEncoder`, which was 5 % of
/// the server's CPU under sends (`scripts/bench/messages`). Every other payload keeps the encoder;
/// `EventPayloadMemoTests` decodes this text back and compares.
enum StoredMessagePayload {
    /// The stored text of any event payload: messages written here, the rest encoded.
    static func text(of payload: EventPayload) throws -> String {
        guard case .message(let message) = payload else { return try JSONColumn.text(payload) }
        return text(message)
    }

    static func text(_ message: Message) -> String {
        var json = JSONWriter(capacity: 768)
        json.object { json in
            json.key("message")
            json.object { json in
                json.key("_0")
                write(message, to: &json)
            }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func write(_ message: Message, to json: inout JSONWriter) {
        json.object { json in
            json.field("messageID", message.messageID)
            json.field("type", message.type.rawValue)
            json.field("channelURL", message.channelURL)
            if let sender = message.sender {
                json.key("sender")
                write(sender, to: &json)
            }
            json.field("message", message.message)
            json.field("customType", message.customType)
            json.field("data", message.data)
            json.field("mentionType", message.mentionType.rawValue)
            json.key("mentionedUserIDs")
            json.array { json in message.mentionedUserIDs.forEach { json.string($0) } }
            json.key("mentionedUsers")
            json.array { json in message.mentionedUsers.forEach { write($0, to: &json) } }
            json.key("sortedMetaarray")
            json.array { json in
                for entry in message.sortedMetaarray {
                    json.object { json in
                        json.field("key", entry.key)
                        json.key("value")
                        json.array { json in entry.value.forEach { json.string($0) } }
                    }
                }
            }
            json.key("reactions")
            json.array { json in
                for reaction in message.reactions {
                    json.object { json in
                        json.field("key", reaction.key)
                        json.key("userIDs")
                        json.array { json in reaction.userIDs.forEach { json.string($0) } }
                        json.field("updatedAt", reaction.updatedAt)
                    }
                }
            }
            json.field("isOpMsg", message.isOpMsg)
            json.field("silent", message.silent)
            json.field("createdAt", message.createdAt)
            json.field("updatedAt", message.updatedAt)
            json.field("isRemoved", message.isRemoved)
            if let dedupID = message.dedupID { json.field("dedupID", dedupID) }
            if let file = message.file {
                json.key("file")
                write(file, to: &json)
            }
            if let hiddenFrom = message.hiddenFrom { json.field("hiddenFrom", hiddenFrom) }
            if let translations = message.translations { json.field("translations", translations) }
            if let ogTag = message.ogTag {
                json.key("ogTag")
                write(ogTag, to: &json)
            }
            writeThread(of: message, to: &json)
        }
    }

    private static func writeThread(of message: Message, to json: inout JSONWriter) {
        if let parentID = message.parentMessageID { json.field("parentMessageID", parentID) }
        if let isReplyToChannel = message.isReplyToChannel { json.field("isReplyToChannel", isReplyToChannel) }
        if let pollID = message.pollID { json.field("pollID", pollID) }
        if let parent = message.parentMessageInfo {
            json.key("parentMessageInfo")
            json.object { json in
                json.field("messageID", parent.messageID)
                json.field("message", parent.message)
                json.field("type", parent.type.rawValue)
                if let sender = parent.sender {
                    json.key("sender")
                    write(sender, to: &json)
                }
                json.field("createdAt", parent.createdAt)
                json.field("customType", parent.customType)
                json.field("isRemoved", parent.isRemoved)
            }
        }
        if let thread = message.threadInfo {
            json.key("threadInfo")
            json.object { json in
                json.field("replyCount", thread.replyCount)
                json.field("lastRepliedAt", thread.lastRepliedAt)
                json.field("updatedAt", thread.updatedAt)
                json.key("mostReplies")
                json.array { json in thread.mostReplies.forEach { write($0, to: &json) } }
            }
        }
    }

    private static func write(_ user: BasicUser, to json: inout JSONWriter) {
        json.object { json in
            json.field("userID", user.userID)
            json.field("nickname", user.nickname)
            json.field("profileURL", user.profileURL)
            json.field("isActive", user.isActive)
        }
    }

    private static func write(_ file: FileAttachment, to json: inout JSONWriter) {
        json.object { json in
            if let fileID = file.fileID { json.field("file_id", fileID) }
            if let url = file.url { json.field("url", url) }
            json.field("name", file.name)
            json.field("type", file.type)
            json.field("size", file.size)
            json.field("require_auth", file.requireAuth)
            json.key("thumbnails")
            json.array { json in
                for thumbnail in file.thumbnails {
                    json.object { json in
                        json.field("width", thumbnail.width)
                        json.field("height", thumbnail.height)
                        json.field("real_width", thumbnail.realWidth)
                        json.field("real_height", thumbnail.realHeight)
                        json.field("type", thumbnail.type)
                        json.field("size", thumbnail.size)
                    }
                }
            }
        }
    }

    private static func write(_ tag: OGTag, to json: inout JSONWriter) {
        json.object { json in
            optional("url", tag.url, &json)
            optional("title", tag.title, &json)
            optional("description", tag.description, &json)
            if let image = tag.image {
                json.key("image")
                json.object { json in
                    optional("url", image.url, &json)
                    optional("secureURL", image.secureURL, &json)
                    optional("type", image.type, &json)
                    if let width = image.width { json.field("width", width) }
                    if let height = image.height { json.field("height", height) }
                    optional("alt", image.alt, &json)
                }
            }
        }
    }

    private static func optional(_ name: StaticString, _ value: String?, _ json: inout JSONWriter) {
        if let value { json.field(name, value) }
    }
}
