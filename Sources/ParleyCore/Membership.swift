/// Whether a member has joined or is only invited (API.md §3.1 `member_state`).
public enum MemberState: String, Sendable {
    case joined, invited
}

/// Whether a member sees the channel in their list (API.md §3.5).
public enum HiddenState: Int, Sendable {
    case unhidden = 0
    case hiddenAllowAutoUnhide = 1
    case hiddenPreventAutoUnhide = 2

    public var name: String {
        switch self {
        case .unhidden: "unhidden"
        case .hiddenAllowAutoUnhide: "hidden_allow_auto_unhide"
        case .hiddenPreventAutoUnhide: "hidden_prevent_auto_unhide"
        }
    }
}

/// One user's relation to a channel: the per-user fields of API.md §3.1.
public struct Membership: Sendable, Equatable {
    public let userID: String
    public let state: MemberState
    public let isOperator: Bool
    public let hiddenState: HiddenState
    public let invitedAt: Int64
    public let joinedAt: Int64
    public let inviter: BasicUser?
    public let tsMessageOffset: Int64
    /// Messages before this are hidden from the member (`hide_previous_messages`).
    public let messagesHiddenBefore: Int64
    public let readTS: Int64
    public let unreadMessageCount: Int
    public let unreadMentionCount: Int
    /// The member's push option for this channel (API.md §12.2).
    public let pushTriggerOption: ChannelPushTriggerOption
    /// What of this channel's unread counts go into the member's totals (issue 52.1).
    public let countPreference: CountPreference

    public init(
        userID: String, state: MemberState, isOperator: Bool, hiddenState: HiddenState, invitedAt: Int64,
        joinedAt: Int64, inviter: BasicUser?, tsMessageOffset: Int64, messagesHiddenBefore: Int64 = 0,
        readTS: Int64 = 0, unreadMessageCount: Int = 0, unreadMentionCount: Int = 0, pushTriggerOption: ChannelPushTriggerOption = .default,
        countPreference: CountPreference = .all
    ) {
        self.pushTriggerOption = pushTriggerOption
        self.countPreference = countPreference
        self.messagesHiddenBefore = messagesHiddenBefore
        self.readTS = readTS
        self.unreadMessageCount = unreadMessageCount
        self.unreadMentionCount = unreadMentionCount
        self.userID = userID
        self.state = state
        self.isOperator = isOperator
        self.hiddenState = hiddenState
        self.invitedAt = invitedAt
        self.joinedAt = joinedAt
        self.inviter = inviter
        self.tsMessageOffset = tsMessageOffset
    }
}
