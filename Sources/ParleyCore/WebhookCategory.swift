/// Sendbird's webhook categories (API.md §10.1), for the events that exist.
public enum WebhookCategory {
    /// Every category a webhook may subscribe to, `*` aside.
    public static let all: Set<String> = [
        "group_channel:create", "group_channel:changed", "group_channel:remove", "group_channel:invite",
        "group_channel:decline_invite", "group_channel:join", "group_channel:leave", "group_channel:message_send",
        "group_channel:message_read", "group_channel:message_update", "group_channel:message_delete",
        "group_channel:freeze_unfreeze", "group_channel:reaction_add", "group_channel:reaction_delete", "open_channel:create",
        "open_channel:remove", "open_channel:enter", "open_channel:exit", "open_channel:message_send", "open_channel:message_update",
        "open_channel:message_delete", "user:block", "user:unblock", "message:report", "user:report", "group_channel:report",
        "open_channel:report", "alert:user_message_rate_limit_exceeded"
    ]

    /// The category an event is announced under, or nil when no webhook hears of it.
    public static func of(_ type: EventType, kind: ChannelKind, payload: EventPayload) -> String? {
        let prefix = kind == .open ? "open_channel" : "group_channel"
        switch type {
        case .userBlocked: return "user:block"
        case .userUnblocked: return "user:unblock"
        case .rateLimitExceeded: return "alert:user_message_rate_limit_exceeded"
        case .reportFiled:
            guard case .report(let report) = payload else { return nil }
            switch report.type {
            case .message: return "message:report"
            case .user: return "user:report"
            case .channel: return "\(report.channel?.kind == .open ? "open_channel" : "group_channel"):report"
            }
        default: break
        }
        let action: String? =
            switch type {
            case .messageReceived: "message_send"
            case .messageUpdated: "message_update"
            case .messageDeleted: "message_delete"
            case .channelDeleted: "remove"
            case .reactionUpdated:
                if case .reaction(_, _, _, let added) = payload { added ? "reaction_add" : "reaction_delete" } else { nil }
            case .read: "message_read"
            case .channelChanged: "changed"
            case .channelFrozen, .channelUnfrozen: "freeze_unfreeze"
            case .memberJoined: "join"
            case .memberLeft: "leave"
            case .userInvited: "invite"
            case .invitationDeclined: "decline_invite"
            case .participantEntered: "enter"
            case .participantExited: "exit"
            case .channelCreated: "create"
            case .delivered, .channelHidden, .channelUnhidden, .operatorsChanged, .metadataChanged, .metacounterChanged, .messagePinned,
                .messageUnpinned, .pollUpdated, .pollVoted, .pollDeleted, .userBanned,
                .userUnbanned,
                .userMuted, .userUnmuted, .sessionEnded, .userBlocked, .userUnblocked, .reportFiled, .rateLimitExceeded:
                nil
            }
        guard let action else { return nil }
        let category = "\(prefix):\(action)"
        return all.contains(category) ? category : nil
    }
}
