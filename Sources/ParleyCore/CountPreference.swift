/// Which of a member's unread counts of a channel go into their totals (Sendbird's
/// `count_preference`, issue 52.1); the channel's own counts are shown whatever it is.
public enum CountPreference: String, Sendable, CaseIterable {
    case all
    case unreadMessageCountOnly = "unread_message_count_only"
    case unreadMentionedCountOnly = "unread_mentioned_count_only"
    case off
}

/// A user's unread items over their group channels (`GET /v3/users/{user_id}/unread_item_count`),
/// each key as Sendbird names it.
public struct UnreadItems: Sendable, Equatable {
    public var counts: [String: Int]

    public init(counts: [String: Int]) {
        self.counts = counts
    }

    /// Every key, in Sendbird's names: unread messages and mentions (as the count preferences
    /// count them) and pending invitations, over all group channels, supergroups, and the others.
    public static let keys = ["unread_message_count", "unread_mention_count", "invitation_count"].flatMap { item in
        ["group_channel_", "super_group_channel_", "non_super_group_channel_"].map { $0 + item }
    }
}
