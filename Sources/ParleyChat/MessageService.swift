import ParleyCore
import ParleyStore

/// Sending, reading, editing and deleting group channel messages (API.md §4.2–4.4).
public struct MessageService: Sendable {
    let store: Store
    let clock: Clock
    let settings: ChatSettings
    let fileRemover: any StoredFileRemover

    /// Supergroups refresh their members' list sort key at most once a minute; smaller channels
    /// on every message.
    static let superGroupActivityThrottle: Int64 = 60_000

    public init(store: Store, clock: Clock, settings: ChatSettings, fileRemover: any StoredFileRemover) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.fileRemover = fileRemover
    }

    /// Sends a message; `created` is false when a retry with the same `dedup_id` found the
    /// message the first attempt made.
    public func send(_ caller: Caller, _ channelURL: String, _ new: NewMessage) async throws -> (message: Message, created: Bool) {
        if new.type == .admin { try caller.requireAdmin() }
        if let senderID = new.senderID { try caller.requireActingAs(senderID) }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let (record, member) = try Self.authorizeSend(caller, channelURL, senderID: new.senderID, repositories)
            let sender = member?.user
            let isOperator = member?.isOperator ?? false
            if !record.isEphemeral, let dedupID = new.dedupID, let senderID = new.senderID,
               case .some(let existingID) = try repositories.messages.claimDedup(channelURL, senderID: senderID, dedupID: dedupID, now: now) {
                guard let existingID, let existing = try repositories.messages.find(channelURL, existingID) else {
                    throw ParleyError.alreadyExists("A message with dedup_id \"\(dedupID)\" is being sent.")
                }
                return (existing, false)
            }
            // Retries found above do not count; the admin is exempt.
            if let senderID = new.senderID, !caller.isAdmin, settings.limits.messagesPerSecond > 0,
               try repositories.sendRates.record(channelURL, senderID, now: now) > settings.limits.messagesPerSecond {
                throw ParleyError.rateLimited(retryAfter: 1)
            }
            let mentioned = try new.mentionedUserIDs.isEmpty ? [] : repositories.groupChannelReader.basicUsers(new.mentionedUserIDs)
            if record.isEphemeral {
                return (try repositories.messages.ephemeral(channelURL, new, sender: sender, mentioned: mentioned, isOperator: isOperator, now: now), true)
            }
            let message = try repositories.messages.append(
                channelURL, new, sender: sender, mentioned: mentioned, isOperator: isOperator, now: now,
                memberActivityThrottle: record.isSuper ? Self.superGroupActivityThrottle : 0
            )
            return (message, true)
        }
    }

    /// Whether `senderID` may send to the channel now, checked before a long upload is read, so
    /// that a refused sender does not first transfer the whole file. `send` checks again.
    public func authorizeUpload(_ caller: Caller, _ channelURL: String, senderID: String) async throws {
        try caller.requireActingAs(senderID)
        _ = try await store.read { try Self.authorizeSend(caller, channelURL, senderID: senderID, $0) }
    }

    /// The channel and the sender's membership, read once (the send path is the hottest write),
    /// if the sender may send: 404 for a channel they cannot see, 403 when not joined or frozen.
    private static func authorizeSend(
        _ caller: Caller, _ channelURL: String, senderID: String?, _ repositories: Repositories
    ) throws -> (GroupChannelRecord, (state: MemberState, isOperator: Bool, user: BasicUser)?) {
        guard let record = try repositories.groupChannels.find(channelURL) else { throw ChannelAccess.notFound(channelURL) }
        let member = try senderID.flatMap { try repositories.groupChannelMembers.sender(channelURL, $0) }
        let access = ChannelAccess(caller: caller, isPublic: record.isPublic, state: member?.state, isOperator: member?.isOperator ?? false)
        try access.requireView(channelURL)
        if let senderID, member?.state != .joined {
            throw ParleyError.forbidden("\"\(senderID)\" is not a joined member of \"\(channelURL)\".")
        }
        if record.freeze && !caller.isAdmin && !(member?.isOperator ?? false) {
            throw ParleyError(status: 403, code: 900050, message: "The channel is frozen.")
        }
        return (record, member)
    }

    /// A history window as `viewerID` (the session user, or the user the admin names) may see it.
    public func history(_ caller: Caller, _ channelURL: String, _ query: HistoryQuery, viewerID: String?) async throws -> [Message] {
        if query.includeRemoved { try caller.requireAdmin() }
        let viewer = try caller.viewer(named: viewerID)
        return try await store.read { repositories in
            let visibleFrom = try Self.visibleFrom(channelURL, caller, viewer, repositories)
            return try repositories.messages.history(channelURL, query, visibleFrom: visibleFrom)
        }
    }

    public func totalCount(_ caller: Caller, _ channelURL: String, viewerID: String?) async throws -> Int {
        let viewer = try caller.viewer(named: viewerID)
        return try await store.read { repositories in
            try repositories.messages.count(channelURL, visibleFrom: try Self.visibleFrom(channelURL, caller, viewer, repositories))
        }
    }

    public func get(_ caller: Caller, _ channelURL: String, _ messageID: Int64) async throws -> Message {
        try await store.read { repositories in
            let visibleFrom = try Self.visibleFrom(channelURL, caller, caller.userID, repositories)
            guard let message = try repositories.messages.find(channelURL, messageID),
                  caller.isAdmin || (!message.isRemoved && message.createdAt >= visibleFrom)
            else { throw Self.notFound(messageID) }
            return message
        }
    }

    /// The sender, the channel's operators and the admin edit; `updated_at` records when.
    public func update(_ caller: Caller, _ channelURL: String, _ messageID: Int64, _ update: MessageUpdate) async throws -> Message {
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            _ = try Self.editable(channelURL, messageID, caller, repositories)
            try repositories.messages.update(messageID, update, now: now)
            return try repositories.messages.find(channelURL, messageID)!
        }
    }

    /// The sender, the channel's operators and the admin delete (soft: the content goes, and
    /// an uploaded file's bytes once the removal has committed).
    public func delete(_ caller: Caller, _ channelURL: String, _ messageID: Int64) async throws {
        let now = clock.nowMillis
        let fileIDs = try await store.transaction { repositories in
            _ = try Self.editable(channelURL, messageID, caller, repositories)
            return try repositories.messages.remove(messageID, now: now)
        }
        if !fileIDs.isEmpty { await fileRemover.removeStoredFiles(fileIDs) }
    }

    /// The message, if the caller may change it: 404 when unseen or removed, 403 for other members.
    static func editable(_ channelURL: String, _ messageID: Int64, _ caller: Caller, _ repositories: Repositories) throws -> Message {
        let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        guard let message = try repositories.messages.find(channelURL, messageID), !message.isRemoved else {
            throw notFound(messageID)
        }
        let isSender = message.sender != nil && message.sender?.userID == caller.userID
        guard isSender || context.access.canManage else {
            throw ParleyError.forbidden("Only the sender and operators may change this message.")
        }
        return message
    }

    /// The earliest message time the viewer may see: session users must be joined members;
    /// reset history, hidden previous messages and the chat-history option move it forward.
    private static func visibleFrom(_ channelURL: String, _ caller: Caller, _ viewer: String?, _ repositories: Repositories) throws -> Int64 {
        let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        if !caller.isAdmin && context.access.state != .joined {
            throw ParleyError.forbidden("Only joined members read the messages of \"\(channelURL)\".")
        }
        // Only the offsets: the full membership (inviter, unread counts) is not needed here.
        return try viewer.flatMap { try repositories.groupChannelMembers.visibleFrom(channelURL, $0) } ?? 0
    }

    static func notFound(_ messageID: Int64) -> ParleyError {
        ParleyError.notFound("Message \(messageID) not found.")
    }
}
