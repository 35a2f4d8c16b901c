import ParleyCore
import ParleyModeration
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

    /// Reading what is said and done in the channel (messages, reactions, metadata, participants,
    /// members' receipts and mutes): the admin; a group channel's joined members (403 for anyone
    /// else who sees it, an invited user or a visitor of a public channel); in an open channel,
    /// whose history is public (API.md §8.3), anyone not banned from it (900100).
    func requireReadContent(now: Int64, _ repositories: Repositories) throws {
        try access.requireView(record.channelURL)
        guard !access.caller.isAdmin else { return }
        switch access.kind {
        case .group:
            guard access.state == .joined else {
                throw ParleyError.forbidden("Only joined members read what is in \"\(record.channelURL)\".")
            }
        case .open:
            guard let userID = access.caller.userID else { return }
            if let banned = try ModerationRules.bannedSender(userID, .open, record.channelURL, now: now, repositories) { throw banned }
        }
    }

    /// Whether `userID`, acting through the caller, may put something in front of the channel's
    /// others now: not while muted, nor while the channel is frozen unless an operator or the
    /// admin acts (`ContributionRules`).
    func requireMayContribute(as userID: String?, now: Int64, _ repositories: Repositories) throws {
        let isMuted = try userID.map { try repositories.mutes.find(access.kind, record.channelURL, $0, now: now) != nil } ?? false
        try ContributionRules.require(
            isMuted: isMuted, channelFrozen: record.freeze, exemptFromFreeze: access.caller.isAdmin || access.isOperator)
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
