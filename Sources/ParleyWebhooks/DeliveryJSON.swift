import ByteCoding
import ParleyCore

// The JSON pieces of delivery bodies (webhooks' and bots'), in Sendbird's shapes.

/// A message's own fields, as `payload` of the message categories and `reported_message`.
struct MessageJSON: JSONWritable {
    let message: Message

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("message_id", message.messageID)
            json.field("message", message.message)
            json.field("custom_type", message.customType)
            json.field("data", message.data)
            json.field("created_at", message.createdAt)
            json.field("updated_at", message.updatedAt)
            json.field("translations", message.translations ?? [:])
            if let file = message.file {
                json.key("url")
                if let url = file.url { json.string(url) } else { json.null() }
                json.field("name", file.name)
                json.field("type", file.type)
                json.field("size", file.size)
            }
        }
    }
}

struct ChangedValueJSON: JSONWritable {
    let value: ChannelFieldChange.Value

    func write(to json: inout JSONWriter) {
        switch value {
        case .string(let text): json.string(text)
        case .bool(let flag): json.bool(flag)
        }
    }
}

struct UserJSON: JSONWritable {
    let user: BasicUser

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", user.userID)
            json.field("nickname", user.nickname)
            json.field("profile_url", user.profileURL)
            json.field("is_active", user.isActive)
        }
    }
}

struct UsersJSON: JSONWritable {
    let users: [BasicUser]

    func write(to json: inout JSONWriter) {
        json.array { json in
            for user in users { json.value(UserJSON(user: user)) }
        }
    }
}

struct ChannelJSON: JSONWritable {
    let channel: WebhookChannel

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("channel_url", channel.channelURL)
            json.field("channel_type", channel.kind.rawValue)
            json.field("name", channel.name)
            json.field("custom_type", channel.customType)
            json.field("data", channel.data)
            json.field("is_distinct", channel.isDistinct)
            json.field("is_public", channel.isPublic)
            json.field("is_super", channel.isSuper)
            json.field("is_ephemeral", channel.isEphemeral)
            json.field("created_at", channel.createdAt)
        }
    }
}
