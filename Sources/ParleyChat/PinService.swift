import ParleyCore
import ParleyStore

/// Pinned messages (API.md §13.2): operators and the admin pin and unpin, and in a 1-to-1 group
/// channel both members; at most `Limits.pinnedMessagesPerChannel` per channel (400203), counted
/// under the channel's row lock so concurrent pins cannot pass it; those who read the channel's
/// content list them, newest pin first.
public struct PinService: Sendable {
    let store: Store
    let clock: Clock
    let limits: Limits
    let pageTokens: PageTokenCodec

    public init(store: Store, clock: Clock, limits: Limits, pageTokens: PageTokenCodec) {
        self.store = store
        self.clock = clock
        self.limits = limits
        self.pageTokens = pageTokens
    }

    /// Pins a message of the channel (pinning it again changes nothing and says nothing);
    /// `message_pinned` tells the channel.
    public func pin(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64) async throws {
        let (now, limit) = (clock.nowMillis, limits.pinnedMessagesPerChannel)
        try await store.transaction { repositories in
            let message = try Self.pinnable(caller, kind, channelURL, messageID, repositories)
            guard try repositories.pins.pin(channelURL, messageID, by: caller.userID, now: now) else { return }
            guard try repositories.pins.count(channelURL) <= limit else {
                throw ParleyError.tooMany("At most \(limit) messages may be pinned in a channel.")
            }
            ChannelEvents.channel(
                .messagePinned, channelURL, kind: kind, payload: .message(message), except: message.hiddenFrom, repositories)
        }
    }

    /// Unpins a message: 404/400201 when it is not pinned; `message_unpinned` tells the channel.
    public func unpin(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64) async throws {
        try await store.transaction { repositories in
            try Self.requirePinning(caller, kind, channelURL, repositories)
            guard try repositories.pins.unpin(channelURL, messageID) else {
                throw ParleyError.notFound("Message \(messageID) is not pinned in \"\(channelURL)\".")
            }
            ChannelEvents.channel(.messageUnpinned, channelURL, kind: kind, payload: .messageID(messageID), repositories)
        }
    }

    /// The channel's pinned messages as the caller reads them, newest pin first, in pages.
    public func list(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, limit: Int, token: String?) async throws
        -> Page<Message>
    {
        let now = clock.nowMillis
        let position = try token.map { token -> (pinnedAt: Int64, messageID: Int64) in
            let parts = try pageTokens.decode(token, scope: "pins:\(channelURL)")
            guard parts.count == 2, let pinnedAt = Int64(parts[0]), let messageID = Int64(parts[1]) else {
                throw ParleyError.invalidPageToken
            }
            return (pinnedAt, messageID)
        }
        let page = try await store.read { repositories in
            try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false).requireReadContent(now: now, repositories)
            return try repositories.pins.messages(channelURL, viewerID: caller.userID, after: position, limit: limit + 1)
        }
        let shown = Array(page.prefix(limit))
        return Page(
            items: shown.map(\.message), positions: shown.map { [String($0.pinnedAt), String($0.message.messageID)] },
            more: page.count > limit, tokens: pageTokens, scope: "pins:\(channelURL)")
    }

    /// The message to pin: in the channel, not removed and not hidden from the caller (404/400201).
    private static func pinnable(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ repositories: Repositories
    ) throws -> Message {
        try requirePinning(caller, kind, channelURL, repositories)
        guard let message = try repositories.messages.find(channelURL, messageID, viewerID: caller.userID), !message.isRemoved else {
            throw ParleyError.notFound("Message \(messageID) not found in \"\(channelURL)\".")
        }
        return message
    }

    /// Locks the channel; operators and the admin may pin, and in a 1-to-1 group channel (a
    /// private one of two members at most) both joined members (403/400108 for anyone else who
    /// sees it).
    private static func requirePinning(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ repositories: Repositories) throws {
        let context = try ChannelContext.load(kind, channelURL, caller, repositories)
        let record = context.record
        let isOneToOne = kind == .group && record.memberCount <= 2 && !record.isPublic && !record.isSuper
        if isOneToOne, context.access.state == .joined { return }
        try context.access.requireManage(channelURL)
    }
}
