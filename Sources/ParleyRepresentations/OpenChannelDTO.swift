import ByteCoding
import ParleyCore

/// The open channel resource (API.md §8.1).
public struct OpenChannelDTO: JSONWritable {
    let channel: OpenChannel
    /// The configured user message length limit.
    let maxMessageLength: Int

    public init(channel: OpenChannel, maxMessageLength: Int) {
        self.channel = channel
        self.maxMessageLength = maxMessageLength
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("channel_url", channel.channelURL)
            json.field("channel_type", "open")
            json.field("name", channel.name)
            json.field("cover_url", channel.coverURL)
            json.field("custom_type", channel.customType)
            json.field("data", channel.data)
            json.field("is_ephemeral", channel.isEphemeral)
            json.field("freeze", channel.freeze)
            json.field("participant_count", channel.participantCount)
            json.field("max_length_message", maxMessageLength)
            json.field("created_at", channel.createdAt)
            json.field("message_retention_hours", channel.messageRetentionHours ?? 0)
            BasicUserDTO.writeCreatorAndOperators(channel.createdBy, channel.operators, to: &json)
            if let pinned = channel.pinnedMessageIDs {
                json.key("pinned_message_ids")
                json.array { json in pinned.forEach { json.int($0) } }
                json.key("last_pinned_message")
                if let last = channel.lastPinnedMessage { json.value(MessageDTO(message: last)) } else { json.null() }
            }
        }
    }
}

/// A participant in the participant list (API.md §8.3).
public struct ParticipantDTO: JSONWritable {
    let participant: Participant

    public init(participant: Participant) {
        self.participant = participant
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            BasicUserDTO(user: participant.user).writeFields(to: &json)
            json.field("is_online", participant.isOnline)
            json.field("last_seen_at", participant.lastSeenAt)
            json.field("is_muted", participant.isMuted)
        }
    }
}

/// A channel of either kind, in the form of its kind.
public struct ChannelResourceDTO: JSONWritable {
    let resource: ChannelResource
    let maxMessageLength: Int

    public init(resource: ChannelResource, maxMessageLength: Int) {
        self.resource = resource
        self.maxMessageLength = maxMessageLength
    }

    public func write(to json: inout JSONWriter) {
        switch resource {
        case .group(let view): ChannelDTO(view: view, maxMessageLength: maxMessageLength).write(to: &json)
        case .open(let channel): OpenChannelDTO(channel: channel, maxMessageLength: maxMessageLength).write(to: &json)
        }
    }
}
