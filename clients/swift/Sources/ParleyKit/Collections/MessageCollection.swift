import Foundation

/// What changed in a `MessageCollection`.
public enum MessageCollectionChange: Sendable, Equatable {
    case added([Message])
    case updated([Message])
    case deleted([Int64])
    /// A message of this device is being sent, or its send failed (`PendingMessage.failure`).
    case pending(PendingMessage)
    /// A pending message left `pendingMessages`: sent (it is in `messages` now) or removed.
    case pendingRemoved(String)
}

/// A channel's messages around a point, for a chat screen: loaded in pages either way, and kept
/// consistent by the event stream (new messages at the live end, edits, deletes) and, when the
/// stream could not bring everything (`resync_required`; for an open channel, any reconnection),
/// by the history and the message changelog. No gap, no duplicate: messages are kept in
/// `createdAt` order, one per id. Messages this device sends through it are pending until the
/// server has them, and kept when their send fails, to resend or remove.
public actor MessageCollection {
    public nonisolated let channelURL: String
    public nonisolated let channelType: ChannelType
    public nonisolated let changes: AsyncStream<MessageCollectionChange>
    let client: ParleyClient
    let pageSize: Int
    let startingPoint: Int64
    let continuation: AsyncStream<MessageCollectionChange>.Continuation
    public internal(set) var messages: [Message] = []
    /// This device's messages not sent yet, and those whose send failed, in the order sent.
    public internal(set) var pendingMessages: [PendingMessage] = []
    /// Whether older messages than those loaded exist (as far as known).
    public private(set) var hasPrevious = true
    /// Whether newer messages than those loaded exist: false at the live end, where new messages
    /// are added as they arrive.
    public internal(set) var hasNext = true
    /// The server time up to which edits and deletes are applied (a catch-up starts there).
    var syncedAt: Int64 = 0
    private var listener: Task<Void, Never>?
    /// Events that came while the first page was loading: applied after it, so that none is lost
    /// between the page's read and the subscription.
    private var held: [ParleyEvent]? = []

    /// `startingPoint`: the time (ms) to open the channel at; the newest messages by default.
    public init(
        client: ParleyClient, channelURL: String, channelType: ChannelType = .group, startingPoint: Int64 = .max, pageSize: Int = 30
    ) {
        self.client = client
        self.channelURL = channelURL
        self.channelType = channelType
        self.startingPoint = startingPoint
        self.pageSize = pageSize
        (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Loads the messages around the starting point and starts following the channel.
    public func start() async throws {
        let events = client.events()
        listener = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.apply(event)
            }
        }
        let params = MessageListParams(point: .timestamp(startingPoint), previousLimit: pageSize, nextLimit: pageSize)
        let loaded = try await client.messages.list(channelURL, params, channelType: channelType)
        let before = loaded.filter { $0.createdAt <= startingPoint }.count
        hasPrevious = before >= pageSize
        hasNext = loaded.count - before >= pageSize
        syncedAt = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
        merge(loaded)
        let waiting = held ?? []
        held = nil
        for event in waiting { await apply(event) }
    }

    public func stop() {
        listener?.cancel()
        listener = nil
        continuation.finish()
    }

    /// Loads a page of older messages; returns them (empty at the channel's beginning).
    @discardableResult
    public func loadPrevious() async throws -> [Message] {
        guard let oldest = messages.first else { return [] }
        var params = MessageListParams(point: .messageId(oldest.messageId), previousLimit: pageSize, nextLimit: 0)
        params.inclusive = false
        let page = try await client.messages.list(channelURL, params, channelType: channelType)
        hasPrevious = page.count >= pageSize
        return merge(page)
    }

    /// Loads a page of newer messages; at the live end, new messages come by themselves.
    @discardableResult
    public func loadNext() async throws -> [Message] {
        guard let newest = messages.last else { return [] }
        let page = try await window(after: newest.messageId, limit: pageSize)
        hasNext = page.count >= pageSize
        return merge(page)
    }

    private func apply(_ event: ParleyEvent) async {
        if held != nil {
            held?.append(event)
            return
        }
        if event.type == "resync_required" || (event.type == "reconnected" && channelType == .open) {
            try? await catchUp()
            return
        }
        guard event.channelURL == channelURL else { return }
        if let ts = event.ts { syncedAt = max(syncedAt, ts) }
        switch event.type {
        case "message_received":
            if !hasNext, let message = event.message { merge([message]) }
        case "message_updated":
            if let message = event.message { replace([message]) }
        case "message_deleted":
            if let id = event.messageId { remove([id]) }
        default: break
        }
    }

    /// Adds the messages not held yet, in order; returns those added.
    @discardableResult
    func merge(_ incoming: [Message]) -> [Message] {
        let known = Set(messages.map(\.messageId))
        let added = incoming.filter { !known.contains($0.messageId) && $0.isRemoved != true }
        guard !added.isEmpty else { return [] }
        messages = (messages + added).sorted { ($0.createdAt, $0.messageId) < ($1.createdAt, $1.messageId) }
        continuation.yield(.added(added))
        return added
    }

    /// Applies newer versions of held messages (an older one, say an event replayed after a
    /// catch-up read the message, is ignored).
    func replace(_ changed: [Message]) {
        var updated: [Message] = []
        for message in changed {
            guard let index = messages.firstIndex(where: { $0.messageId == message.messageId }) else { continue }
            if message.isRemoved == true {
                remove([message.messageId])
            } else if messages[index] != message, message.updatedAt >= messages[index].updatedAt {
                messages[index] = message
                updated.append(message)
            }
        }
        if !updated.isEmpty { continuation.yield(.updated(updated)) }
    }

    func remove(_ ids: [Int64]) {
        let gone = Set(ids).intersection(messages.map(\.messageId))
        guard !gone.isEmpty else { return }
        messages.removeAll { gone.contains($0.messageId) }
        continuation.yield(.deleted(gone.sorted()))
    }
}
