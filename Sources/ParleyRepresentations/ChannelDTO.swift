import ByteCoding
import ParleyCore

/// The group channel resource (API.md §3.1), with the viewer's per-user fields when a viewer is known.
public struct ChannelDTO: JSONWritable {
    let view: ChannelView
    /// The configured user message length limit.
    let maxMessageLength: Int

    public init(view: ChannelView, maxMessageLength: Int) {
        self.view = view
        self.maxMessageLength = maxMessageLength
    }

    public func write(to json: inout JSONWriter) {
        let channel = view.channel
        json.object { json in
            json.field("channel_url", channel.channelURL)
            json.field("name", channel.name)
            json.field("cover_url", channel.coverURL)
            json.field("custom_type", channel.customType)
            json.field("data", channel.data)
            json.field("is_distinct", channel.isDistinct)
            json.field("is_public", channel.isPublic)
            json.field("is_super", channel.isSuper)
            json.field("is_ephemeral", channel.isEphemeral)
            json.field("is_access_code_required", channel.isAccessCodeRequired)
            json.field("freeze", channel.freeze)
            json.field("member_count", channel.memberCount)
            json.field("joined_member_count", channel.joinedMemberCount)
            json.field("max_length_message", maxMessageLength)
            json.field("created_at", channel.createdAt)
            // Its own retention (API.md §14.3); Sendbird's shape for disappearing messages, -1: off.
            json.field("message_retention_hours", channel.messageRetentionHours ?? 0)
            json.key("disappearing_message")
            json.object { json in
                json.field("message_survival_seconds", channel.messageSurvivalSeconds ?? -1)
                json.field("is_triggered_by_message_read", true)
            }
            BasicUserDTO.writeCreatorAndOperators(channel.createdBy, channel.operators, to: &json)
            json.key("last_message")
            if let last = view.lastMessage { json.value(MessageDTO(message: last)) } else { json.null() }
            if let pinned = view.pinnedMessageIDs {
                json.key("pinned_message_ids")
                json.array { json in pinned.forEach { json.int($0) } }
                json.key("last_pinned_message")
                if let last = view.lastPinnedMessage { json.value(MessageDTO(message: last)) } else { json.null() }
            }
            if let members = view.members {
                json.key("members")
                json.array { json in members.forEach { json.value(MemberDTO(member: $0)) } }
            }
            if view.showReadReceipt { json.field("read_receipt", ReceiptsDTO(members: joined, position: \.readTS)) }
            if view.showDeliveryReceipt { json.field("delivery_receipt", ReceiptsDTO(members: joined, position: \.deliveredTS)) }
            if view.viewerID != nil { writeViewerFields(&json) }
        }
    }

    private var joined: [Member] { view.receiptMembers ?? [] }

    private func writeViewerFields(_ json: inout JSONWriter) {
        let membership = view.membership
        json.field("member_state", membership?.state.rawValue ?? "none")
        json.field("my_role", membership?.isOperator == true ? "operator" : "none")
        let hidden = membership?.hiddenState ?? .unhidden
        json.field("is_hidden", hidden != .unhidden)
        json.field("hidden_state", hidden.name)
        json.field("user_last_read", membership?.readTS ?? 0)
        json.field("ts_message_offset", membership?.tsMessageOffset ?? 0)
        json.field("unread_message_count", membership?.unreadMessageCount ?? 0)
        json.field("unread_mention_count", membership?.unreadMentionCount ?? 0)
        json.field("invited_at", membership?.invitedAt ?? 0)
        json.field("joined_ts", membership?.joinedAt ?? 0)
        json.field("push_trigger_option", membership?.pushTriggerOption.rawValue ?? "default")
        json.field("is_push_enabled", membership.map { $0.pushTriggerOption != .off } ?? false)
        json.field("count_preference", (membership?.countPreference ?? .all).rawValue)
        json.key("inviter")
        if let inviter = membership?.inviter { json.value(BasicUserDTO(user: inviter)) } else { json.null() }
    }
}

/// A member in a channel's member list (API.md §3.4).
public struct MemberDTO: JSONWritable {
    let member: Member

    public init(member: Member) {
        self.member = member
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", member.user.userID)
            json.field("nickname", member.user.nickname)
            json.field("profile_url", member.user.profileURL)
            json.field("is_active", member.user.isActive)
            json.field("state", member.state.rawValue)
            json.field("role", member.isOperator ? "operator" : "none")
            json.field("is_online", member.isOnline)
            json.field("last_seen_at", member.lastSeenAt)
            json.field("is_blocked_by_me", member.isBlockedByViewer)
            // Receipts and mutes only for a viewer who may see members' activity (API.md §3.4).
            guard member.showsActivity else { return }
            json.field("is_muted", member.mutedEndAt != nil)
            json.field("muted_end_at", member.mutedEndAt ?? 0)
            json.field("read_ts", member.readTS)
            json.field("delivered_ts", member.deliveredTS)
        }
    }
}

/// `{ "user_id": ts, … }` for the joined members.
public struct ReceiptsDTO: JSONWritable {
    let members: [Member]
    let position: KeyPath<Member, Int64>

    public init(members: [Member], position: KeyPath<Member, Int64>) {
        self.members = members
        self.position = position
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in members.forEach { json.member($0.user.userID, $0[keyPath: position]) } }
    }
}
