import ParleyCore
import ParleyModeration
import ParleyStore

/// Invitations, joining, leaving and operators (API.md §3.4).
public struct MembershipService: Sendable {
    let store: Store
    let clock: Clock
    let settings: ChatSettings
    let accessCodes: AccessCodes

    public init(store: Store, clock: Clock, settings: ChatSettings, accessCodes: AccessCodes) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.accessCodes = accessCodes
    }

    /// Joined members and the admin invite; invitees follow their auto-accept preference.
    /// Inviting anyone new ends the channel's distinctness.
    public func invite(_ caller: Caller, _ channelURL: String, userIDs: [String], inviterID: String?) async throws -> ChannelView {
        if let inviterID { try caller.requireActingAs(inviterID) }
        let inviter = caller.userID ?? inviterID
        let now = clock.nowMillis
        let offset = settings.historyOffset(joiningAt: now)
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireInvite(channelURL)
            try requireUsersExist(userIDs, repositories)
            try ModerationRules.requireNotBanned(userIDs, .group, channelURL, now: now, repositories)
            let autoAccept = try repositories.invitationPreferences.autoAccept(userIDs)
            let members = userIDs.map { userID in
                NewMember(
                    userID: userID, state: autoAccept[userID, default: true] ? .joined : .invited, isOperator: false,
                    inviterID: inviter, tsMessageOffset: offset)
            }
            let added = Set(try repositories.groupChannelMembers.insert(channelURL, members, now: now))
            if !added.isEmpty {
                try repositories.groupChannels.refreshCounts([channelURL])
                try requireWithinLimit(channelURL, isSuper: context.record.isSuper, repositories)
                try repositories.groupChannels.endDistinct([channelURL])
                let joined = members.filter { added.contains($0.userID) && $0.state == .joined }.map(\.userID)
                let invited = members.filter { added.contains($0.userID) && $0.state == .invited }.map(\.userID)
                try ChannelEvents.membersJoined(channelURL, joined, repositories)
                try ChannelEvents.invited(channelURL, inviterID: inviter, invited, repositories)
            }
            return try ChannelViews.one(channelURL, viewerID: caller.userID, repositories)
        }
    }

    /// An invited user accepts (400111 unless invited); a channel with an access code needs it
    /// from everyone but the admin.
    public func accept(_ caller: Caller, _ channelURL: String, userID: String, accessCode: String?) async throws -> ChannelView {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        let offset = settings.historyOffset(joiningAt: now)
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireView(channelURL)
            try requireInvited(channelURL, userID, repositories)
            try ModerationRules.requireNotBanned([userID], .group, channelURL, now: now, repositories)
            try requireAccessCode(context, accessCode, caller, repositories)
            try repositories.groupChannelMembers.join(channelURL, userID, now: now, tsMessageOffset: offset)
            try repositories.groupChannels.refreshCounts([channelURL])
            try ChannelEvents.membersJoined(channelURL, [userID], repositories)
            return try ChannelViews.one(channelURL, viewerID: userID, repositories)
        }
    }

    /// An invited user declines (400111 unless invited); the member set changes, so a distinct
    /// channel stops being distinct.
    public func decline(_ caller: Caller, _ channelURL: String, userID: String) async throws {
        try caller.requireActingAs(userID)
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireView(channelURL)
            try requireInvited(channelURL, userID, repositories)
            try repositories.groupChannelMembers.remove(channelURL, [userID])
            try repositories.groupChannels.refreshCounts([channelURL])
            try repositories.groupChannels.endDistinct([channelURL])
            let decliner = try repositories.users.basicUsers([userID])
            ChannelEvents.channel(.invitationDeclined, channelURL, payload: .users(decliner), alsoTo: [userID], repositories)
        }
    }

    /// Joins a public channel (private: 403), with its access code unless the admin acts.
    /// Joining again is harmless; an invitation is accepted by joining.
    public func join(_ caller: Caller, _ channelURL: String, userID: String, accessCode: String?) async throws -> ChannelView {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        let offset = settings.historyOffset(joiningAt: now)
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireView(channelURL)
            guard context.record.isPublic else { throw ParleyError.forbidden("Only public channels can be joined; ask for an invitation.") }
            try ModerationRules.requireNotBanned([userID], .group, channelURL, now: now, repositories)
            try requireAccessCode(context, accessCode, caller, repositories)
            try requireUsersExist([userID], repositories)
            return try admit(userID, context, now: now, offset: offset, repositories)
        }
    }

    /// The admin makes a user a joined member, of a private channel too (a bot joining, API.md
    /// §14.8); an invitation is accepted. Banned users stay out.
    public func admit(_ caller: Caller, _ channelURL: String, userID: String) async throws -> ChannelView {
        try caller.requireAdmin()
        let now = clock.nowMillis
        let offset = settings.historyOffset(joiningAt: now)
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try ModerationRules.requireNotBanned([userID], .group, channelURL, now: now, repositories)
            return try admit(userID, context, now: now, offset: offset, repositories)
        }
    }

    /// Joining's writes: joined stays, invited joins, anyone else becomes a joined member.
    private func admit(_ userID: String, _ context: ChannelContext, now: Int64, offset: Int64, _ repositories: Repositories) throws
        -> ChannelView
    {
        let channelURL = context.record.channelURL
        switch try repositories.groupChannelMembers.state(channelURL, userID)?.state {
        case .joined: break
        case .invited:
            try repositories.groupChannelMembers.join(channelURL, userID, now: now, tsMessageOffset: offset)
            try ChannelEvents.membersJoined(channelURL, [userID], repositories)
        case nil:
            let member = NewMember(userID: userID, state: .joined, isOperator: false, inviterID: nil, tsMessageOffset: offset)
            try repositories.groupChannelMembers.insert(channelURL, [member], now: now)
            try ChannelEvents.membersJoined(channelURL, [userID], repositories)
        }
        try repositories.groupChannels.refreshCounts([channelURL])
        try requireWithinLimit(channelURL, isSuper: context.record.isSuper, repositories)
        return try ChannelViews.one(channelURL, viewerID: userID, repositories)
    }

    /// The users leave this channel, or with `leaveAll` every channel they are in. A member
    /// leaving ends distinctness; an empty channel stays until the admin deletes it.
    public func leave(_ caller: Caller, _ channelURL: String, userIDs: [String], leaveAll: Bool) async throws {
        for userID in userIDs { try caller.requireActingAs(userID) }
        try await store.transaction { repositories in
            // Leaving several channels locks them all, in order, before any member row.
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: !leaveAll)
            try context.access.requireView(channelURL)
            let channels = leaveAll ? try userIDs.flatMap { try repositories.groupChannelMembers.channelURLs(of: $0) } : [channelURL]
            if leaveAll { try repositories.groupChannels.lock(channels) }
            for userID in userIDs {
                try Self.leave(userID, channelURLs: leaveAll ? nil : [channelURL], repositories)
            }
        }
    }

    /// `PUT /v3/users/{user_id}/my_group_channels/leave`: the user leaves every group channel
    /// they have joined, or those of one custom type.
    public func leaveJoined(_ caller: Caller, userID: String, customType: String?) async throws {
        try caller.requireActingAs(userID)
        try await store.transaction { repositories in
            let channels = try repositories.groupChannelMembers.joinedChannelURLs(of: userID, customType: customType)
            try repositories.groupChannels.lock(channels)
            try Self.leave(userID, channelURLs: channels, repositories)
        }
    }

    /// The admin takes a user out of every group channel they are in (a bot leaving all, API.md §14.8).
    public func leaveEvery(_ caller: Caller, userID: String) async throws {
        try caller.requireAdmin()
        try await store.transaction { repositories in
            try repositories.groupChannels.lock(try repositories.groupChannelMembers.channelURLs(of: userID))
            try Self.leave(userID, channelURLs: nil, repositories)
        }
    }

    /// Deletes the user's memberships (of all their channels when nil); the channels they left
    /// stop being distinct and have their counts redone. The caller holds the channels' locks.
    /// `announce` false: no auto event message (an account deactivated or deleted, whose name
    /// should not be left behind in its channels).
    static func leave(_ userID: String, channelURLs: [String]?, announce: Bool = true, _ repositories: Repositories) throws {
        let left = try repositories.groupChannelMembers.leave(userID, channelURLs: channelURLs)
        guard !left.isEmpty else { return }
        try repositories.groupChannels.endDistinct(left)
        try repositories.groupChannels.refreshCounts(left)
        for channelURL in left { try ChannelEvents.membersLeft(channelURL, [userID], announce: announce, repositories) }
    }

    private func requireInvited(_ channelURL: String, _ userID: String, _ repositories: Repositories) throws {
        guard try repositories.groupChannelMembers.state(channelURL, userID)?.state == .invited else {
            throw ParleyError.invalidValue("user_id", "\"\(userID)\" has no pending invitation to this channel")
        }
    }

    /// A channel with an access code admits everyone but the admin only with it. A code stored
    /// in the unsalted form of earlier versions is stored anew once someone gives it.
    private func requireAccessCode(_ context: ChannelContext, _ accessCode: String?, _ caller: Caller, _ repositories: Repositories) throws
    {
        guard let stored = context.record.accessCodeHash, !caller.isAdmin else { return }
        switch accessCodes.match(accessCode, stored: stored) {
        case .no: throw ParleyError.forbidden("The access code is missing or wrong.")
        case .yes: break
        case .yesInLegacyForm:
            if let accessCode {
                try repositories.groupChannels.replaceAccessCode(context.record.channelURL, accessCodes.stored(accessCode))
            }
        }
    }

    private func requireWithinLimit(_ channelURL: String, isSuper: Bool, _ repositories: Repositories) throws {
        let limit = settings.memberLimit(isSuper: isSuper)
        guard try repositories.groupChannels.find(channelURL)?.memberCount ?? 0 <= limit else {
            throw ParleyError.tooMany("A channel may have at most \(limit) members.")
        }
    }
}

/// 400/400201 naming the ids that are not users.
func requireUsersExist(_ userIDs: [String], _ repositories: Repositories) throws {
    let known = Set(try repositories.users.basicUsers(userIDs).map(\.userID))
    let unknown = userIDs.filter { !known.contains($0) }
    guard unknown.isEmpty else { throw ParleyError.unknownReference("Users not found: \(unknown.joined(separator: ", ")).") }
}

extension MembershipService: ChannelDeparture {
    /// Deactivation and deletion take the user out of every channel (their locks are taken),
    /// open channels included.
    public func leaveAll(_ userID: String, _ repositories: Repositories) throws {
        try Self.leave(userID, channelURLs: nil, announce: false, repositories)
        try ParticipantService.exitAll(userID, repositories)
    }
}
