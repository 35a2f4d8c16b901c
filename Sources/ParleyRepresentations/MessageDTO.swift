import ByteCoding
import ParleyCore

/// The message resource (API.md §4.1).
public struct MessageDTO: JSONWritable {
    let message: Message

    public init(message: Message) {
        self.message = message
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("message_id", message.messageID)
            json.field("type", message.type.rawValue)
            json.field("channel_url", message.channelURL)
            json.field("channel_type", message.channelKind.rawValue)
            if let sender = message.sender {
                json.key("user")
                json.object { json in
                    BasicUserDTO(user: sender).writeFields(to: &json)
                    json.field("is_blocked_by_me", message.isSenderBlockedByViewer)
                }
            }
            json.field("message", message.message)
            json.field("custom_type", message.customType)
            json.field("data", message.data)
            json.field("mention_type", message.mentionType.rawValue)
            json.key("mentioned_users")
            json.array { json in message.mentionedUsers.forEach { json.value(BasicUserDTO(user: $0)) } }
            MetaArrayDTO.writeField(message.sortedMetaarray, to: &json)
            json.key("reactions")
            json.array { json in message.reactions.forEach { json.value(ReactionDTO(reaction: $0)) } }
            json.field("translations", message.translations ?? [:])
            if let tag = message.ogTag { OGTagDTO(tag: tag).writeField(to: &json) }
            json.field("is_op_msg", message.isOpMsg)
            json.field("silent", message.silent)
            json.field("created_at", message.createdAt)
            json.field("updated_at", message.updatedAt)
            json.field("is_removed", message.isRemoved)
            if let dedupID = message.dedupID { json.field("dedup_id", dedupID) }
            if let file = message.file { FileAttachmentDTO(file: file).writeFields(to: &json) }
            ThreadFieldsDTO(message: message).writeFields(to: &json)
            if let pollID = message.pollID { json.field("poll_id", pollID) }
            if let poll = message.poll { json.field("poll", PollDTO(poll: poll)) }
        }
    }
}

/// `sorted_metaarray`: `[{ key, value: [...] }]`, in order.
enum MetaArrayDTO {
    static func writeField(_ metaarray: [MetaArray], to json: inout JSONWriter) {
        json.key("sorted_metaarray")
        json.array { json in
            for entry in metaarray {
                json.object { json in
                    json.field("key", entry.key)
                    json.key("value")
                    json.array { json in entry.value.forEach { json.string($0) } }
                }
            }
        }
    }
}

/// `{ key, user_ids, updated_at }`
public struct ReactionDTO: JSONWritable {
    let reaction: Reaction

    public init(reaction: Reaction) {
        self.reaction = reaction
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("key", reaction.key)
            json.key("user_ids")
            json.array { json in reaction.userIDs.forEach { json.string($0) } }
            json.field("updated_at", reaction.updatedAt)
        }
    }
}

/// `og_tag` (API.md §11.1), with Open Graph's own key names; absent fields are null.
public struct OGTagDTO {
    let tag: OGTag

    public init(tag: OGTag) {
        self.tag = tag
    }

    public func writeField(to json: inout JSONWriter) {
        json.key("og_tag")
        json.object { json in
            Self.optional("og:url", tag.url, &json)
            Self.optional("og:title", tag.title, &json)
            Self.optional("og:description", tag.description, &json)
            json.key("og:image")
            if let image = tag.image {
                json.object { json in
                    Self.optional("url", image.url, &json)
                    Self.optional("secure_url", image.secureURL, &json)
                    Self.optional("type", image.type, &json)
                    json.key("width")
                    if let width = image.width { json.int(Int64(width)) } else { json.null() }
                    json.key("height")
                    if let height = image.height { json.int(Int64(height)) } else { json.null() }
                    Self.optional("alt", image.alt, &json)
                }
            } else {
                json.null()
            }
        }
    }

    private static func optional(_ key: String, _ value: String?, _ json: inout JSONWriter) {
        json.key(key)
        if let value { json.string(value) } else { json.null() }
    }
}
