/// A member as the members list shows them (API.md §3.4).
public struct Member: Sendable, Equatable {
    public let user: BasicUser
    public let state: MemberState
    public let isOperator: Bool
    public let isOnline: Bool
    public let lastSeenAt: Int64
    public let readTS: Int64
    public let deliveredTS: Int64
    /// A mute in force: its end (-1 permanent); nil when not muted.
    public let mutedEndAt: Int64?
    /// Whether the one listing the members blocks this one.
    public let isBlockedByViewer: Bool
    /// False when the viewer may see who is in the channel but not what members do in it (their
    /// receipts and mutes): a visitor of a public channel, an invited user
    /// (`ChannelAccess.canSeeMemberActivity`).
    public private(set) var showsActivity = true

    public init(
        user: BasicUser, state: MemberState, isOperator: Bool, isOnline: Bool = false, lastSeenAt: Int64, readTS: Int64 = 0,
        deliveredTS: Int64 = 0, mutedEndAt: Int64? = nil, isBlockedByViewer: Bool = false
    ) {
        self.user = user
        self.state = state
        self.isOperator = isOperator
        self.isOnline = isOnline
        self.lastSeenAt = isOnline ? 0 : lastSeenAt
        self.readTS = readTS
        self.deliveredTS = deliveredTS
        self.mutedEndAt = mutedEndAt
        self.isBlockedByViewer = isBlockedByViewer
    }

    /// The member as a viewer who may not see their receipts and mutes sees them.
    public func withoutActivity() -> Member {
        var member = self
        member.showsActivity = false
        return member
    }
}

/// The orders of a channel's member list (API.md §3.4).
public enum MemberOrder: String, Sendable, CaseIterable {
    case memberNicknameAlphabetical = "member_nickname_alphabetical"
    case operatorThenMemberAlphabetical = "operator_then_member_alphabetical"
}

/// `muted_member_filter` of a channel's member list.
public enum MutedFilter: String, Sendable, CaseIterable {
    case all, muted, unmuted
}

/// The filters of a channel's member list.
public struct MemberFilter: Sendable {
    public var state: MemberStateFilter = .all
    /// true: operators only, false: non-operators only, nil: everyone.
    public var operators: Bool?
    public var muted: MutedFilter = .all
    public var order: MemberOrder = .memberNicknameAlphabetical

    public init() {}
}
