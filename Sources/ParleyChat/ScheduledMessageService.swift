import ParleyCore
import ParleyStore

/// Scheduled messages (API.md §13.3): a group channel's member schedules a message (the admin
/// for any member) between `Limits.scheduleMinLeadMillis` and `scheduleMaxLeadMillis` ahead, at
/// most `Limits.scheduledPerChannel` pending per channel; only they and the admin see, change or
/// cancel it while it is pending. `ScheduledMessageDelivery` sends it at its time.
public struct ScheduledMessageService: Sendable {
    let store: Store
    let clock: Clock
    let limits: Limits
    let pageTokens: PageTokenCodec
    let delivery: ScheduledMessageDelivery

    public init(store: Store, clock: Clock, limits: Limits, pageTokens: PageTokenCodec, delivery: ScheduledMessageDelivery) {
        self.store = store
        self.clock = clock
        self.limits = limits
        self.pageTokens = pageTokens
        self.delivery = delivery
    }

    /// Schedules `content` (a `MESG`, or a `FILE` linking a file hosted elsewhere), if its sender
    /// may send into the channel now; 409/400203 beyond the channel's pending limit.
    public func create(_ caller: Caller, _ channelURL: String, _ content: NewMessage, at scheduledAt: Int64) async throws
        -> ScheduledMessage
    {
        guard content.type != .admin, let senderID = content.senderID else {
            throw ParleyError.invalidValue("message_type", "only MESG and FILE messages are scheduled")
        }
        guard content.type == .user || content.targetLanguages.isEmpty else {
            throw ParleyError.invalidValue("target_langs", "only user messages (MESG) are translated")
        }
        guard content.pollID == nil else { throw ParleyError.invalidValue("poll_id", "a scheduled message carries no poll") }
        guard content.dedupID == nil else {
            throw ParleyError.invalidValue("dedup_id", "a scheduled message's send carries its own")
        }
        try caller.requireActingAs(senderID)
        let now = clock.nowMillis
        try requireLead(scheduledAt, now: now)
        let limit = limits.scheduledPerChannel
        return try await store.transaction { repositories in
            // As a send would be now (the channel's row locked, so the count below holds).
            let (record, _) = try MessageService.authorizeSend(caller, .group, channelURL, senderID: senderID, now: now, repositories)
            // Its messages are stored nowhere, so a second attempt could not find the first's.
            guard !record.isEphemeral else {
                throw ParleyError.invalidValue("channel_url", "an ephemeral channel's messages cannot be scheduled")
            }
            if let parentID = content.parentMessageID {
                _ = try MessageService.replyParent(parentID, channelURL, senderID: senderID, repositories)
            }
            guard try repositories.scheduledMessages.pendingCount(channelURL) < limit else {
                throw ParleyError.tooMany("At most \(limit) messages may wait to be sent in a channel.")
            }
            let id = try repositories.scheduledMessages.insert(channelURL, content, senderID: senderID, scheduledAt: scheduledAt, now: now)
            guard let created = try repositories.scheduledMessages.find(id) else { throw ParleyError.internalError }
            return created
        }
    }

    public func get(_ caller: Caller, _ channelURL: String, _ id: Int64) async throws -> ScheduledMessage {
        try await store.read { try Self.visible(caller, channelURL, id, $0) }
    }

    /// Changes a pending message (400111 once it is sent, failed or canceled).
    public func update(_ caller: Caller, _ channelURL: String, _ id: Int64, _ change: ScheduledMessageUpdate) async throws
        -> ScheduledMessage
    {
        let now = clock.nowMillis
        if let scheduledAt = change.scheduledAt { try requireLead(scheduledAt, now: now) }
        return try await store.transaction { repositories in
            let current = try Self.pending(caller, channelURL, id, repositories)
            let content = change.applied(to: current.content)
            if content.type == .user, content.message.isEmpty { throw ParleyError.invalidValue("message", "must not be empty") }
            guard try repositories.scheduledMessages.update(id, content, scheduledAt: change.scheduledAt ?? current.scheduledAt, now: now)
            else { throw ParleyError.invalidValue("scheduled_message_id", "the message is being sent") }
            return try Self.visible(caller, channelURL, id, repositories)
        }
    }

    /// Cancels a pending message (400111 once it is no longer pending, or while it is being sent).
    public func cancel(_ caller: Caller, _ channelURL: String, _ id: Int64) async throws -> ScheduledMessage {
        let now = clock.nowMillis
        let canceled = try await store.transaction { repositories in
            _ = try Self.pending(caller, channelURL, id, repositories)
            guard try repositories.scheduledMessages.cancel(id, now: now) else {
                throw ParleyError.invalidValue("scheduled_message_id", "the message is being sent")
            }
            return try Self.visible(caller, channelURL, id, repositories)
        }
        await discardFile(of: canceled)
        return canceled
    }

    /// Sends a pending message now, by the same path as at its time: the message, or the refusal
    /// a live send would get (the scheduled message is then `failed` with it).
    public func sendNow(_ caller: Caller, _ channelURL: String, _ id: Int64) async throws -> ScheduledMessage {
        let scheduled = try await store.read { try Self.pending(caller, channelURL, id, $0, forUpdate: false) }
        if case .failed(let refusal) = await delivery.deliver(scheduled) { throw refusal }
        return try await get(caller, channelURL, id)
    }

    /// The caller's scheduled messages (the admin: anyone's), in id order, in pages.
    public func list(_ caller: Caller, _ filter: ScheduledMessageFilter, limit: Int, token: String?) async throws
        -> Page<ScheduledMessage>
    {
        let filter = try Self.own(caller, filter)
        let afterID = try token.map { token -> Int64 in
            guard let id = Int64(try pageTokens.decode(token, scope: "scheduled").first ?? "") else { throw ParleyError.invalidPageToken }
            return id
        }
        let page = try await store.read { try $0.scheduledMessages.list(filter, afterID: afterID, limit: limit + 1) }
        let shown = Array(page.prefix(limit))
        return Page(
            items: shown, positions: shown.map { [String($0.scheduledMessageID)] }, more: page.count > limit, tokens: pageTokens,
            scope: "scheduled")
    }

    public func count(_ caller: Caller, _ filter: ScheduledMessageFilter) async throws -> Int {
        let filter = try Self.own(caller, filter)
        return try await store.read { try $0.scheduledMessages.count(filter) }
    }

    /// A session user lists their own only (403/400108 for another sender).
    private static func own(_ caller: Caller, _ filter: ScheduledMessageFilter) throws -> ScheduledMessageFilter {
        guard let userID = caller.userID else { return filter }
        if let senderID = filter.senderID { try caller.requireActingAs(senderID) }
        var own = filter
        own.senderID = userID
        return own
    }

    func requireLead(_ scheduledAt: Int64, now: Int64) throws {
        let (earliest, latest) = (now + limits.scheduleMinLeadMillis, now + limits.scheduleMaxLeadMillis)
        guard (earliest...latest).contains(scheduledAt) else {
            throw ParleyError.invalidValue(
                "scheduled_at",
                "must be between \(limits.scheduleMinLeadMillis / 60_000) minutes and \(limits.scheduleMaxLeadMillis / 3_600_000) hours ahead"
            )
        }
    }

    /// The message in that channel, if the caller is its sender or the admin (404/400201 otherwise).
    private static func visible(_ caller: Caller, _ channelURL: String, _ id: Int64, _ repositories: Repositories, forUpdate: Bool = false)
        throws -> ScheduledMessage
    {
        guard let scheduled = try repositories.scheduledMessages.find(id, forUpdate: forUpdate), scheduled.channelURL == channelURL,
            caller.mayActAs(scheduled.sender.userID)
        else { throw ParleyError.notFound("Scheduled message \(id) not found in \"\(channelURL)\".") }
        return scheduled
    }

    /// `visible` (locked for a change), and still pending (400111 otherwise).
    private static func pending(
        _ caller: Caller, _ channelURL: String, _ id: Int64, _ repositories: Repositories, forUpdate: Bool = true
    ) throws -> ScheduledMessage {
        let scheduled = try visible(caller, channelURL, id, repositories, forUpdate: forUpdate)
        guard scheduled.status == .pending else {
            throw ParleyError.invalidValue("scheduled_message_id", "the message is \(scheduled.status.rawValue), no longer pending")
        }
        return scheduled
    }
}
