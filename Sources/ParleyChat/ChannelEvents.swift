import ParleyCore
import ParleyStore

/// The events of API.md §6.2 that the chat services append to their transactions: the payloads
/// are read in the transaction, so they show the change as it commits.
enum ChannelEvents {
    /// To the joined members, except the one the message is hidden from (API.md §7.3).
    static func message(_ type: EventType, _ message: Message, _ repositories: Repositories) {
        repositories.events.append(
            NewEvent(
                type, channelURL: message.channelURL, audience: .joinedMembers, payload: .message(message),
                exceptUserID: message.hiddenFrom,
                channelKind: message.channelKind
            ))
    }

    /// To the joined members (the invited ones too when `includeInvited`), and to `alsoTo`,
    /// who may no longer be members (a member who left, a channel deleted), never to `except`.
    static func channel(
        _ type: EventType, _ channelURL: String, kind: ChannelKind = .group, payload: EventPayload = .nothing, includeInvited: Bool = false,
        alsoTo: [String] = [], except: String? = nil, _ repositories: Repositories
    ) {
        repositories.events.append(
            NewEvent(
                type, channelURL: channelURL, audience: includeInvited ? .members : .joinedMembers, userIDs: alsoTo, payload: payload,
                exceptUserID: except, channelKind: kind)
        )
    }

    /// To one user only (their own hide state).
    static func user(_ type: EventType, _ channelURL: String, _ userID: String, _ repositories: Repositories) {
        repositories.events.append(NewEvent(type, channelURL: channelURL, audience: .users, userIDs: [userID]))
    }

    /// `channel_changed` with the channel as everyone sees it, to joined and invited members;
    /// with what changed since `before`, when an update changed it.
    static func channelChanged(_ channelURL: String, since before: GroupChannel? = nil, _ repositories: Repositories) throws {
        let channel = try ChannelViews.one(channelURL, viewerID: nil, repositories).channel
        let payload =
            before.map { EventPayload.changedChannel(channel, changes: ChannelFieldChange.between($0, channel)) } ?? .channel(channel)
        self.channel(.channelChanged, channelURL, payload: payload, includeInvited: true, repositories)
        if before != nil { try AutoEventMessageService.post(.channelChange, channelURL, users: [], repositories) }
    }

    /// With the channel's auto event message when that is on (not when the channel is being
    /// created: it tells of its creation instead).
    static func membersJoined(_ channelURL: String, _ userIDs: [String], creating: Bool = false, _ repositories: Repositories) throws {
        guard !userIDs.isEmpty else { return }
        let users = try repositories.users.basicUsers(userIDs)
        channel(.memberJoined, channelURL, payload: .users(users), repositories)
        if !creating { try AutoEventMessageService.post(.userJoin, channelURL, users: users, repositories) }
    }

    /// The users who left hear of it too.
    static func membersLeft(_ channelURL: String, _ userIDs: [String], announce: Bool = true, _ repositories: Repositories) throws {
        guard !userIDs.isEmpty else { return }
        let users = try repositories.users.basicUsers(userIDs)
        channel(.memberLeft, channelURL, payload: .users(users), alsoTo: userIDs, repositories)
        if announce { try AutoEventMessageService.post(.userLeave, channelURL, users: users, repositories) }
    }

    static func invited(_ channelURL: String, inviterID: String?, _ inviteeIDs: [String], _ repositories: Repositories) throws {
        guard !inviteeIDs.isEmpty else { return }
        let inviter = try inviterID.flatMap { try repositories.users.basicUsers([$0]).first }
        let invitees = try repositories.users.basicUsers(inviteeIDs)
        channel(.userInvited, channelURL, payload: .invitation(inviter: inviter, invitees: invitees), includeInvited: true, repositories)
    }

    static func operatorsChanged(_ channelURL: String, _ repositories: Repositories) throws {
        let operators = try repositories.groupChannelReader.operators([channelURL])[channelURL] ?? []
        channel(.operatorsChanged, channelURL, payload: .users(operators), repositories)
    }

    /// The audit row of a moderator's action on a channel (API.md §7.5).
    static func audit(
        _ action: AuditAction, _ caller: Caller, _ channelURL: String, kind: ChannelKind = .group, targetUserID: String? = nil,
        messageID: Int64? = nil, details: [String: String] = [:], _ repositories: Repositories
    ) throws {
        try repositories.auditLogs.append(
            NewAuditEntry(
                action, actorID: caller.userID, targetUserID: targetUserID, channelKind: kind, channelURL: channelURL,
                messageID: messageID,
                details: details))
    }
}
