import ParleyCore
import ParleyStore

/// A channel locked for the current transaction, with what the caller may do to it.
struct ChannelContext {
    let record: ChannelRecord
    let access: ChannelAccess

    /// Locks the channel's row (404 when it does not exist) and works out the caller's access.
    /// In an open channel everyone may look; a participant counts as a joined member, and
    /// operators are the channel's operators, in it or not.
    static func load(
        _ kind: ChannelKind, _ channelURL: String, _ caller: Caller, _ repositories: Repositories, forUpdate: Bool = true
    ) throws -> ChannelContext {
        if kind == .open { return try loadOpen(channelURL, caller, repositories, forUpdate: forUpdate) }
        guard let record = try repositories.groupChannels.find(channelURL, forUpdate: forUpdate) else {
            throw ChannelAccess.notFound(channelURL)
        }
        let membership = try caller.userID.flatMap { try repositories.groupChannelMembers.state(channelURL, $0) }
        return ChannelContext(
            record: record,
            access: ChannelAccess(
                caller: caller, isPublic: record.isPublic, state: membership?.state, isOperator: membership?.isOperator ?? false)
        )
    }

    /// `load` for a group channel.
    static func load(_ channelURL: String, _ caller: Caller, _ repositories: Repositories, forUpdate: Bool = true) throws -> ChannelContext
    {
        try load(.group, channelURL, caller, repositories, forUpdate: forUpdate)
    }

    private static func loadOpen(_ channelURL: String, _ caller: Caller, _ repositories: Repositories, forUpdate: Bool) throws
        -> ChannelContext
    {
        guard let record = try repositories.openChannels.find(channelURL, forUpdate: forUpdate) else {
            throw ChannelAccess.notFound(channelURL)
        }
        let (isParticipant, isOperator) = try caller.userID.map { try repositories.participants.standing(channelURL, $0) } ?? (false, false)
        return ChannelContext(
            record: ChannelRecord(open: record),
            access: ChannelAccess(
                caller: caller, isPublic: true, state: isParticipant ? .joined : nil, isOperator: isOperator, kind: .open)
        )
    }

    /// Whether `userID` is in the channel: a joined member, or a participant of an open channel.
    static func isIn(_ kind: ChannelKind, _ channelURL: String, _ userID: String, _ repositories: Repositories) throws -> Bool {
        switch kind {
        case .group: try repositories.groupChannelMembers.state(channelURL, userID)?.state == .joined
        case .open: try repositories.participants.isParticipant(channelURL, userID)
        }
    }
}

extension Caller {
    /// Whose per-user fields a response carries: the session user, or for the admin the
    /// `user_id` the request names (if any). A session user naming someone else is 403.
    func viewer(named userID: String?) throws -> String? {
        switch self {
        case .admin: return userID
        case .user(let own):
            if let userID, userID != own { throw ParleyError.forbidden("You may not act for user \"\(userID)\".") }
            return own
        }
    }
}
