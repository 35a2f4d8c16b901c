import ParleyCore
import ParleyFiles
import ParleyModeration
import ParleyStore

/// Creating, reading, changing and deleting group channels (API.md §3.2, §3.3).
public struct GroupChannelService: Sendable {
    let store: Store
    let clock: Clock
    let settings: ChatSettings
    let accessCodes: AccessCodes
    let files: FileService

    public init(store: Store, clock: Clock, settings: ChatSettings, accessCodes: AccessCodes, files: FileService) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.accessCodes = accessCodes
        self.files = files
    }

    /// Creates the channel, or returns the existing distinct channel of the same members
    /// (`created` false).
    public func create(_ caller: Caller, _ request: NewGroupChannel) async throws -> (view: ChannelView, created: Bool) {
        if let inviterID = request.inviterID { try caller.requireActingAs(inviterID) }
        if request.channelURL != nil && !caller.isAdmin && !settings.sessionUsersChooseChannelURLs {
            // Refused whether or not the URL is taken, so the answer tells nothing about other channels.
            throw ParleyError.forbidden("Channel URLs are generated on this server: leave out channel_url.")
        }
        if request.isDistinct && request.isSuper { throw ParleyError.invalidValue("is_distinct", "a supergroup cannot be distinct") }
        if request.isDistinct && request.isPublic { throw ParleyError.invalidValue("is_distinct", "a public channel cannot be distinct") }
        let creatorID = caller.userID ?? request.inviterID
        let memberIDs = ([creatorID].compactMap { $0 } + request.userIDs + request.users.map(\.userID) + request.operatorIDs)
            .orderedUnique()
        let limit = settings.memberLimit(isSuper: request.isSuper)
        guard memberIDs.count <= limit else { throw ParleyError.tooMany("A channel may have at most \(limit) members.") }
        let now = clock.nowMillis
        let row = GroupChannelRow(
            channelURL: request.channelURL ?? "group_" + SecretHashing.randomHex(bytes: 16),
            name: request.name, coverURL: request.coverURL, customType: request.customType, data: request.data,
            isDistinct: request.isDistinct, isPublic: request.isPublic, isSuper: request.isSuper,
            isEphemeral: request.isEphemeral, accessCodeHash: request.accessCode.map(accessCodes.stored),
            createdAt: now, createdBy: creatorID,
            distinctMembers: request.isDistinct ? memberIDs.sorted().joined(separator: "\n") : nil
        )
        let viewer = caller.userID
        let offset = settings.historyOffset(joiningAt: now)
        return try await store.transaction { repositories in
            if caller.isAdmin { try createMissingUsers(request.users, now: now, repositories) }
            try requireUsersExist(memberIDs, repositories)
            let (created, url) = try repositories.groupChannels.insert(row)
            if created {
                // Those banned from the channels of its custom type (API.md §14.7) are not added.
                if !row.customType.isEmpty { try ModerationRules.requireNotBanned(memberIDs, .group, url, now: now, repositories) }
                let operators = Set(request.operatorIDs)
                let autoAccept = try repositories.invitationPreferences.autoAccept(memberIDs)
                // Operators are invited like everyone else: naming a user an operator does not
                // override their auto-accept preference.
                let members = memberIDs.map { userID in
                    let joins = userID == creatorID || autoAccept[userID, default: true]
                    return NewMember(
                        userID: userID, state: joins ? .joined : .invited, isOperator: operators.contains(userID),
                        inviterID: userID == creatorID ? nil : creatorID, tsMessageOffset: offset
                    )
                }
                try repositories.groupChannels.setMessagePolicy(url, request.messagePolicy)
                try repositories.groupChannelMembers.insert(url, members, now: now)
                try repositories.groupChannels.refreshCounts([url])
                try ChannelEvents.membersJoined(url, members.filter { $0.state == .joined }.map(\.userID), creating: true, repositories)
                try ChannelEvents.invited(url, inviterID: creatorID, members.filter { $0.state == .invited }.map(\.userID), repositories)
                let channel = try ChannelViews.one(url, viewerID: nil, repositories).channel
                repositories.events.append(.webhookOnly(.channelCreated, channelURL: url, payload: .channel(channel)))
                try AutoEventMessageService.post(.channelCreate, url, users: channel.createdBy.map { [$0] } ?? [], repositories)
            }
            let view = try ChannelViews.one(url, viewerID: viewer, repositories)
            return (view, created)
        }
    }

    /// At most this many members (and receipts) are embedded in a channel, as in Sendbird; the
    /// members list (`GET …/members`) pages through all of a supergroup's 20,000.
    public static let embeddedMemberLimit = 100

    /// The channel as `viewerID` (or the session user) sees it, with its first members and their
    /// receipts when asked (see `embeddedMemberLimit`).
    public func get(
        _ caller: Caller, _ channelURL: String, viewerID: String?, showMembers: Bool,
        showReadReceipt: Bool = false, showDeliveryReceipt: Bool = false
    ) async throws -> ChannelView {
        let viewer = try caller.viewer(named: viewerID)
        return try await store.replicaRead { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            let view = try ChannelViews.one(channelURL, viewerID: viewer, repositories)
            // Receipts are members' activity: only for those who may see it.
            let showsActivity = context.access.canSeeMemberActivity
            let (showReadReceipt, showDeliveryReceipt) = (showReadReceipt && showsActivity, showDeliveryReceipt && showsActivity)
            let members =
                showMembers || showReadReceipt || showDeliveryReceipt
                ? try repositories.groupChannelMembers.list(
                    channelURL, MemberFilter(), viewerID: viewer, after: nil, limit: Self.embeddedMemberLimit, now: clock.nowMillis
                ).map { showsActivity ? $0.member : $0.member.withoutActivity() }
                : nil
            var shown = ChannelView(
                channel: view.channel, viewerID: viewer, membership: view.membership, members: showMembers ? members : nil,
                receiptMembers: members?.filter { $0.state == .joined },
                showReadReceipt: showReadReceipt, showDeliveryReceipt: showDeliveryReceipt, lastMessage: view.lastMessage
            )
            (shown.pinnedMessageIDs, shown.lastPinnedMessage) = (view.pinnedMessageIDs, view.lastPinnedMessage)
            return shown
        }
    }

    /// Operators and the admin change the channel; turning `is_distinct` on is refused for
    /// public channels and supergroups.
    public func update(_ caller: Caller, _ channelURL: String, _ update: GroupChannelUpdate) async throws -> ChannelView {
        let viewer = caller.userID
        let accessCodes = accessCodes
        return try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let isPublic = update.isPublic ?? context.record.isPublic
            if update.isDistinct == true && (isPublic || context.record.isSuper) {
                throw ParleyError.invalidValue("is_distinct", "public channels and supergroups cannot be distinct")
            }
            let accessCodeHash: String?? = update.accessCode.map { $0.isEmpty ? nil : accessCodes.stored($0) }
            let before = try ChannelViews.one(channelURL, viewerID: nil, repositories).channel
            try repositories.groupChannels.update(channelURL, update, accessCodeHash: accessCodeHash)
            try repositories.groupChannels.setMessagePolicy(channelURL, update.messagePolicy)
            try ChannelEvents.channelChanged(channelURL, since: before, repositories)
            return try ChannelViews.one(channelURL, viewerID: viewer, repositories)
        }
    }

    /// Operators and the admin delete the channel with everything in it (its files' bytes once
    /// the deletion has committed).
    public func delete(_ caller: Caller, _ channelURL: String) async throws {
        let files = files
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let fileIDs = try repositories.files.removeForChannel(channelURL)
            // The members are gone with the channel, so they are named.
            let members = try repositories.events.recipients([channelURL])[channelURL]?.map(\.userID) ?? []
            _ = try repositories.groupChannels.delete(channelURL)
            repositories.events.append(NewEvent(.channelDeleted, channelURL: channelURL, audience: .users, userIDs: members))
            try ChannelEvents.audit(.channelDeleted, caller, channelURL, repositories)
            if !fileIDs.isEmpty { repositories.afterCommit { await files.removeStoredFiles(fileIDs) } }
        }
    }

    private func createMissingUsers(_ users: [NewChannelUser], now: Int64, _ repositories: Repositories) throws {
        let existing = Set(try repositories.users.basicUsers(users.map(\.userID)).map(\.userID))
        for user in users where !existing.contains(user.userID) {
            try repositories.users.insertIfAbsent(
                User(userID: user.userID, nickname: user.nickname ?? user.userID, profileURL: user.profileURL ?? "", createdAt: now)
            )
        }
    }
}
