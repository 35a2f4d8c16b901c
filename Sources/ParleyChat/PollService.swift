import ParleyCore
import ParleyStore

/// Polls (API.md §13.4, Sendbird's paths). A poll is made by a user (or the admin), for a
/// channel or not yet; a message sent with its `poll_id` carries it and gives it its channel.
/// Those who read the channel's content read it; its creator, the channel's operators and the
/// admin change, close and delete it; the channel's members vote, each vote replacing the
/// voter's earlier ones, counted exactly under the poll's row lock. Every change goes to the
/// channel as `poll_updated`, every vote as `poll_voted`, with the poll after it.
public struct PollService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let limits: Limits

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, limits: Limits) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.limits = limits
    }

    public func create(_ caller: Caller, _ new: NewPoll) async throws -> Poll {
        if let creator = new.createdBy { try caller.requireActingAs(creator) } else { try caller.requireAdmin() }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            if let (url, kind) = new.channel {
                let context = try ChannelContext.load(kind, url, caller, repositories, forUpdate: false)
                try context.requireReadContent(now: now, repositories)
                // A poll made for a channel is put in front of its members, as the message carrying it.
                try context.requireMayContribute(as: new.createdBy ?? caller.userID, now: now, repositories)
            }
            return try Self.found(try repositories.polls.insert(new, now: now), repositories)
        }
    }

    /// The poll and, for a session user, the options they voted for.
    public func get(_ caller: Caller, _ pollID: Int64) async throws -> (poll: Poll, voted: [Int64]?) {
        let now = clock.nowMillis
        return try await store.read { repositories in
            let poll = try Self.found(pollID, repositories)
            try Self.requireRead(caller, poll, now: now, repositories)
            return (poll, try caller.userID.map { try repositories.polls.votes(of: $0, in: [pollID])[pollID] ?? [] })
        }
    }

    public func update(_ caller: Caller, _ pollID: Int64, _ change: PollUpdate) async throws -> Poll {
        try await changing(caller, pollID) { poll, now, repositories in
            try repositories.polls.update(pollID, change, now: now)
            return .pollUpdated
        }
    }

    public func close(_ caller: Caller, _ pollID: Int64) async throws -> Poll {
        try await changing(caller, pollID, contributes: false) { poll, now, repositories in
            // Closing is idempotent: a closed poll stays as it is, and nothing is announced.
            guard !poll.isClosed(at: now) else { return nil }
            try repositories.polls.close(pollID, now: now)
            return .pollUpdated
        }
    }

    /// Deletes the poll with its votes; a message that carried it no longer does.
    public func delete(_ caller: Caller, _ pollID: Int64) async throws {
        let now = clock.nowMillis
        try await store.transaction { repositories in
            let poll = try Self.found(pollID, repositories, forUpdate: true)
            try Self.requireRead(caller, poll, now: now, repositories)
            try Self.requireChange(caller, poll, repositories)
            try repositories.polls.delete(pollID)
            if let url = poll.channelURL, let kind = poll.channelKind {
                ChannelEvents.channel(.pollDeleted, url, kind: kind, payload: .pollID(pollID), repositories)
            }
        }
    }

    /// Adds an option: the poll's changers, and with `allow_user_suggestion` its channel's members.
    public func addOption(_ caller: Caller, _ pollID: Int64, text: String, createdBy: String?) async throws -> Poll {
        if let creator = createdBy { try caller.requireActingAs(creator) }
        return try await changing(caller, pollID, mayMembers: true) { poll, now, repositories in
            guard poll.options.count < limits.pollOptions else {
                throw ParleyError.tooMany("A poll has at most \(limits.pollOptions) options.")
            }
            guard !poll.isClosed(at: now) else { throw ParleyError.invalidValue("poll_id", "the poll is closed") }
            _ = try repositories.polls.addOption(pollID, text: text, createdBy: createdBy ?? caller.userID, now: now)
            return .pollUpdated
        }
    }

    public func updateOption(_ caller: Caller, _ pollID: Int64, _ optionID: Int64, text: String) async throws -> Poll {
        try await changing(caller, pollID) { poll, now, repositories in
            try Self.requireOption(optionID, of: poll, inPath: true)
            guard !poll.isClosed(at: now) else { throw ParleyError.invalidValue("poll_id", "the poll is closed") }
            try repositories.polls.updateOption(pollID, optionID, text: text, now: now)
            return .pollUpdated
        }
    }

    public func deleteOption(_ caller: Caller, _ pollID: Int64, _ optionID: Int64) async throws -> Poll {
        try await changing(caller, pollID) { poll, now, repositories in
            try Self.requireOption(optionID, of: poll, inPath: true)
            guard !poll.isClosed(at: now) else { throw ParleyError.invalidValue("poll_id", "the poll is closed") }
            guard poll.options.count > 1 else { throw ParleyError.invalidValue("option_id", "a poll keeps at least one option") }
            try repositories.polls.deleteOption(pollID, optionID, now: now)
            return .pollUpdated
        }
    }

    /// `userID`'s votes become `optionIDs` (none: taken back). Only the channel's members vote,
    /// only while the poll is open, for one option unless it allows several.
    public func vote(_ caller: Caller, _ pollID: Int64, userID: String, optionIDs: [Int64]) async throws -> Poll {
        try caller.requireActingAs(userID)
        let chosen = Array(Set(optionIDs)).sorted()
        // Taking one's votes back stays allowed while muted, as removing one's reaction does.
        return try await changing(caller, pollID, voter: userID, contributes: !chosen.isEmpty) { poll, now, repositories in
            guard !poll.isClosed(at: now) else { throw ParleyError.invalidValue("poll_id", "the poll is closed") }
            guard chosen.count <= 1 || poll.allowMultipleVotes else {
                throw ParleyError.invalidValue("option_ids", "this poll takes one vote per user")
            }
            for optionID in chosen { try Self.requireOption(optionID, of: poll) }
            return try repositories.polls.vote(pollID, userID: userID, optionIDs: chosen, now: now) ? .pollVoted : nil
        }
    }

    /// Who voted for an option, in pages (user id order).
    public func voters(_ caller: Caller, _ pollID: Int64, _ optionID: Int64, limit: Int, token: String?) async throws -> Page<BasicUser> {
        let now = clock.nowMillis
        let scope = "voters:\(optionID)"
        let after = try token.map { try pageTokens.decode($0, scope: scope).first ?? "" }
        let page = try await store.read { repositories in
            let poll = try Self.found(pollID, repositories)
            try Self.requireRead(caller, poll, now: now, repositories)
            try Self.requireOption(optionID, of: poll, inPath: true)
            return try repositories.polls.voters(optionID, afterUserID: after, limit: limit + 1)
        }
        let shown = Array(page.prefix(limit))
        return Page(items: shown, positions: shown.map { [$0.userID] }, more: page.count > limit, tokens: pageTokens, scope: scope)
    }

    /// Runs a change of the poll under its row lock, by one who may make it (with `voter`, a
    /// member voting; with `mayMembers`, a member suggesting where the poll allows it); tells
    /// the channel with the poll after it when `body` names an event. A change that `contributes`
    /// (puts something new in front of the channel) is refused while the acting user is muted or
    /// the channel frozen (`ChannelContext.requireMayContribute`).
    private func changing(
        _ caller: Caller, _ pollID: Int64, voter: String? = nil, mayMembers: Bool = false, contributes: Bool = true,
        _ body: @escaping @Sendable (Poll, Int64, Repositories) throws -> EventType?
    ) async throws -> Poll {
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let poll = try Self.found(pollID, repositories, forUpdate: true)
            // Who cannot read it does not learn that it exists.
            try Self.requireRead(caller, poll, now: now, repositories)
            if let voter {
                try Self.requireMember(voter, poll, repositories)
            } else if mayMembers, poll.allowUserSuggestion, let userID = caller.userID, !(try Self.mayChange(caller, poll, repositories)) {
                try Self.requireMember(userID, poll, repositories)
            } else {
                try Self.requireChange(caller, poll, repositories)
            }
            if contributes, let url = poll.channelURL, let kind = poll.channelKind {
                let context = try ChannelContext.load(kind, url, caller, repositories, forUpdate: false)
                try context.requireMayContribute(as: voter ?? caller.userID, now: now, repositories)
            }
            let event = try body(poll, now, repositories)
            let changed = try Self.found(pollID, repositories)
            if let event, let url = changed.channelURL, let kind = changed.channelKind {
                ChannelEvents.channel(event, url, kind: kind, payload: .poll(changed), repositories)
            }
            return changed
        }
    }

    static func found(_ pollID: Int64, _ repositories: Repositories, forUpdate: Bool = false) throws -> Poll {
        guard let poll = try repositories.polls.find(pollID, forUpdate: forUpdate) else {
            throw ParleyError.notFound("Poll \(pollID) not found.")
        }
        return poll
    }

    /// Those who read the channel's content read its polls; a poll of no channel yet, its creator
    /// and the admin (404/400201 for anyone else: they do not learn it exists).
    static func requireRead(_ caller: Caller, _ poll: Poll, now: Int64, _ repositories: Repositories) throws {
        guard let url = poll.channelURL, let kind = poll.channelKind else {
            guard caller.isAdmin || (poll.createdBy.map(caller.mayActAs) ?? false) else {
                throw ParleyError.notFound("Poll \(poll.pollID) not found.")
            }
            return
        }
        let context = try ChannelContext.load(kind, url, caller, repositories, forUpdate: false)
        try context.requireReadContent(now: now, repositories)
    }

    /// Its creator, the channel's operators and the admin change a poll (403/400108 otherwise).
    private static func requireChange(_ caller: Caller, _ poll: Poll, _ repositories: Repositories) throws {
        guard try mayChange(caller, poll, repositories) else {
            throw ParleyError.forbidden("Only the poll's creator, the channel's operators and the admin change it.")
        }
    }

    private static func mayChange(_ caller: Caller, _ poll: Poll, _ repositories: Repositories) throws -> Bool {
        if caller.isAdmin || (poll.createdBy.map(caller.mayActAs) ?? false) { return true }
        guard let url = poll.channelURL, let kind = poll.channelKind else { return false }
        return try ChannelContext.load(kind, url, caller, repositories, forUpdate: false).access.canManage
    }

    /// A member of the poll's channel (a participant of an open one): 400111 while the poll is
    /// in no channel, 403/400108 for anyone else.
    private static func requireMember(_ userID: String, _ poll: Poll, _ repositories: Repositories) throws {
        guard let url = poll.channelURL, let kind = poll.channelKind else {
            throw ParleyError.invalidValue("poll_id", "the poll is in no channel yet: send a message with it first")
        }
        guard try ChannelContext.isIn(kind, url, userID, repositories) else {
            throw ParleyError.forbidden("Only the members of \"\(url)\" vote in its polls.")
        }
    }

    /// An option of the poll: one the path names is a resource (404/400201 when there is none),
    /// one a vote's body names a value (400111).
    private static func requireOption(_ optionID: Int64, of poll: Poll, inPath: Bool = false) throws {
        guard poll.options.contains(where: { $0.optionID == optionID }) else {
            if inPath { throw ParleyError.notFound("Poll \(poll.pollID) has no option \(optionID).") }
            throw ParleyError.invalidValue("option_id", "poll \(poll.pollID) has no option \(optionID)")
        }
    }
}
