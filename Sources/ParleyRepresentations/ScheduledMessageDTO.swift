import ByteCoding
import ParleyCore

/// A scheduled message (API.md §13.3): what will be sent, when, and what became of it.
public struct ScheduledMessageDTO: JSONWritable {
    let scheduled: ScheduledMessage

    public init(scheduled: ScheduledMessage) {
        self.scheduled = scheduled
    }

    public func write(to json: inout JSONWriter) {
        let content = scheduled.content
        json.object { json in
            json.field("scheduled_message_id", scheduled.scheduledMessageID)
            json.field("scheduled_at", scheduled.scheduledAt)
            json.field("status", scheduled.status.rawValue)
            json.field("channel_url", scheduled.channelURL)
            json.field("channel_type", ChannelKind.group.rawValue)
            json.field("type", content.type.rawValue)
            json.field("message_type", content.type.rawValue)
            json.key("user")
            json.value(BasicUserDTO(user: scheduled.sender))
            json.field("message", content.message)
            json.field("custom_type", content.customType)
            json.field("data", content.data)
            json.field("mention_type", content.mentionType.rawValue)
            json.key("mentioned_user_ids")
            json.array { json in content.mentionedUserIDs.forEach { json.string($0) } }
            MetaArrayDTO.writeField(content.sortedMetaarray, to: &json)
            json.field("is_silent", content.isSilent)
            json.field("send_push", content.sendsPush)
            json.key("target_langs")
            json.array { json in content.targetLanguages.forEach { json.string($0) } }
            json.field("parent_message_id", content.parentMessageID ?? 0)
            json.field("is_reply_to_channel", content.isReplyToChannel)
            if let file = content.file { FileAttachmentDTO(file: file).writeFields(to: &json) }
            json.field("message_id", scheduled.messageID ?? 0)
            json.key("failure_code")
            if let code = scheduled.failureCode { json.int(Int64(code)) } else { json.null() }
            json.key("failure_reason")
            if let reason = scheduled.failureReason { json.string(reason) } else { json.null() }
            json.field("created_at", scheduled.createdAt)
            json.field("updated_at", scheduled.updatedAt)
        }
    }
}
