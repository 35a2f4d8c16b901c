/// A user as embedded in other resources (API.md §2.1): sender, inviter, creator, operator.
public struct BasicUser: Sendable, Equatable {
    public let userID: String
    public let nickname: String
    public let profileURL: String
    public let isActive: Bool

    public init(userID: String, nickname: String, profileURL: String, isActive: Bool) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.isActive = isActive
    }
}

/// A group channel's own fields (API.md §3.1), the same for every viewer.
public struct GroupChannel: Sendable, Equatable {
    public var channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isDistinct: Bool
    public var isPublic: Bool
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var isAccessCodeRequired: Bool
    public var freeze: Bool
    public var memberCount: Int
    public var joinedMemberCount: Int
    public var createdAt: Int64
    public var createdBy: BasicUser?
    public var operators: [BasicUser]

    public init(
        channelURL: String, name: String, coverURL: String, customType: String, data: String,
        isDistinct: Bool, isPublic: Bool, isSuper: Bool, isEphemeral: Bool, isAccessCodeRequired: Bool,
        freeze: Bool, memberCount: Int, joinedMemberCount: Int, createdAt: Int64,
        createdBy: BasicUser?, operators: [BasicUser]
    ) {
        self.channelURL = channelURL
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.isAccessCodeRequired = isAccessCodeRequired
        self.freeze = freeze
        self.memberCount = memberCount
        self.joinedMemberCount = joinedMemberCount
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.operators = operators
    }
}

public enum MemberState: String, Sendable, CaseIterable {
    case joined, invited
}

/// Whether a member sees the channel in their list (API.md §3.5).
public enum HiddenState: Int, Sendable, CaseIterable {
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

    public init(
        userID: String, state: MemberState, isOperator: Bool, hiddenState: HiddenState, invitedAt: Int64,
        joinedAt: Int64, inviter: BasicUser?, tsMessageOffset: Int64, messagesHiddenBefore: Int64 = 0,
        readTS: Int64 = 0, unreadMessageCount: Int = 0, unreadMentionCount: Int = 0
    ) {
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

/// A member as the members list shows them (API.md §3.4).
public struct Member: Sendable, Equatable {
    public let user: BasicUser
    public let state: MemberState
    public let isOperator: Bool
    public let lastSeenAt: Int64
    public let readTS: Int64
    public let deliveredTS: Int64

    public init(user: BasicUser, state: MemberState, isOperator: Bool, lastSeenAt: Int64, readTS: Int64 = 0, deliveredTS: Int64 = 0) {
        self.user = user
        self.state = state
        self.isOperator = isOperator
        self.lastSeenAt = lastSeenAt
        self.readTS = readTS
        self.deliveredTS = deliveredTS
    }
}

/// A channel as one viewer sees it: the channel, the viewer's membership (nil when not a member
/// or no viewer is known), and the members when asked for.
public struct ChannelView: Sendable {
    public let channel: GroupChannel
    public let viewerID: String?
    public let membership: Membership?
    public let members: [Member]?
    /// Joined members, when read or delivery receipts were asked for.
    public let receiptMembers: [Member]?
    public let showReadReceipt: Bool
    public let showDeliveryReceipt: Bool
    /// The newest message the viewer can see.
    public let lastMessage: Message?

    public init(
        channel: GroupChannel, viewerID: String?, membership: Membership?, members: [Member]?,
        receiptMembers: [Member]? = nil, showReadReceipt: Bool = false, showDeliveryReceipt: Bool = false,
        lastMessage: Message? = nil
    ) {
        self.lastMessage = lastMessage
        self.channel = channel
        self.viewerID = viewerID
        self.membership = membership
        self.members = members
        self.receiptMembers = receiptMembers
        self.showReadReceipt = showReadReceipt
        self.showDeliveryReceipt = showDeliveryReceipt
    }
}

/// The orders of a channel's member list (API.md §3.4).
public enum MemberOrder: String, Sendable, CaseIterable {
    case memberNicknameAlphabetical = "member_nickname_alphabetical"
    case operatorThenMemberAlphabetical = "operator_then_member_alphabetical"
}

/// The filters of a channel's member list.
public struct MemberFilter: Sendable {
    public var state: MemberStateFilter = .all
    /// true: operators only, false: non-operators only, nil: everyone.
    public var operators: Bool?
    public var order: MemberOrder = .memberNicknameAlphabetical

    public init() {}
}
