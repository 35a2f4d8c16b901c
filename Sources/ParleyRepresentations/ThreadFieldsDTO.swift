import ByteCoding
import ParleyCore

/// A message's thread fields (API.md §13.1): `parent_message_id` (0: no reply) and
/// `is_reply_to_channel` always, as Sendbird's clients expect them; `parent_message_info` on a
/// reply when it was filled in, `thread_info` on a message that has had replies.
struct ThreadFieldsDTO {
    let message: Message

    func writeFields(to json: inout JSONWriter) {
        json.field("parent_message_id", message.parentMessageID ?? 0)
        json.field("is_reply_to_channel", message.isReplyToChannel ?? false)
        if let parent = message.parentMessageInfo {
            json.key("parent_message_info")
            json.object { json in
                json.field("message_id", parent.messageID)
                json.field("message", parent.message)
                json.field("type", parent.type.rawValue)
                json.field("custom_type", parent.customType)
                json.field("ts", parent.createdAt)
                json.field("is_removed", parent.isRemoved)
                if let sender = parent.sender {
                    json.key("user")
                    json.value(BasicUserDTO(user: sender))
                }
            }
        }
        if let thread = message.threadInfo {
            json.key("thread_info")
            json.object { json in
                json.field("reply_count", thread.replyCount)
                json.key("most_replies")
                json.array { json in thread.mostReplies.forEach { json.value(BasicUserDTO(user: $0)) } }
                json.field("last_replied_at", thread.lastRepliedAt)
                json.field("updated_at", thread.updatedAt)
            }
        }
    }
}
