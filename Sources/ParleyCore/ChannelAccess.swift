import Foundation

/// Who may see and change a channel (API.md §1.7, §3, §8): the rules, apart from any storage.
public struct ChannelAccess: Sendable {
    public let caller: Caller
    public let isPublic: Bool
    /// The acting user's membership state, when the caller is a user and a member (in an open
    /// channel: `.joined` for a participant).
    public let state: MemberState?
    public let isOperator: Bool
    public let kind: ChannelKind

    public init(caller: Caller, isPublic: Bool, state: MemberState?, isOperator: Bool, kind: ChannelKind = .group) {
        self.caller = caller
        self.isPublic = isPublic
        self.state = state
        self.isOperator = isOperator
        self.kind = kind
    }

    /// The admin, any member (joined or invited), and everyone for a public channel.
    public var canView: Bool { caller.isAdmin || isPublic || state != nil }

    /// Members' read and delivery receipts and mutes: the admin and joined members, not everyone
    /// who may look at a public channel or has been invited to one.
    public var canSeeMemberActivity: Bool { caller.isAdmin || state == .joined }

    /// Change, freeze, delete, operators, metadata writes: the admin and joined operators (an
    /// open channel's operators whether they are in it or not).
    public var canManage: Bool { caller.isAdmin || (isOperator && (state == .joined || kind == .open)) }

    /// 404 for a channel the caller may not see, so that private channels do not leak.
    public func requireView(_ channelURL: String) throws {
        guard canView else { throw ChannelAccess.notFound(channelURL) }
    }

    /// 404 when the caller may not see the channel, 403 when they see it but may not manage it.
    public func requireManage(_ channelURL: String) throws {
        try requireView(channelURL)
        guard canManage else { throw ParleyError.forbidden("Only operators of \"\(channelURL)\" may do this.") }
    }

    /// Operators lose their role only to the admin or by giving it up themselves: an operator who
    /// could take another's role could then ban them, which operators may not do to each other.
    public static func requireMayRemoveOperators(_ userIDs: [String], operators: Set<String>, by caller: Caller) throws {
        guard caller.isAdmin || userIDs.allSatisfy({ $0 == caller.userID || !operators.contains($0) }) else {
            throw ParleyError.forbidden("Only the admin may remove another operator.")
        }
    }

    /// Inviting needs the admin or a joined member.
    public func requireInvite(_ channelURL: String) throws {
        try requireView(channelURL)
        guard caller.isAdmin || state == .joined else { throw ParleyError.forbidden("Only members may invite to \"\(channelURL)\".") }
    }

    public static func notFound(_ channelURL: String) -> ParleyError {
        ParleyError.notFound("Channel \"\(channelURL)\" not found.")
    }
}
