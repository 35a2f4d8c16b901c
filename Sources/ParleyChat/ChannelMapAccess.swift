import ParleyCore
import ParleyStore

/// Who reads and writes a channel's key-value maps (metadata, API.md §3.10, §8.2; metacounters,
/// §13.6), and the event a write sends: those who read the channel's content
/// (`ChannelContext.requireReadContent`) read, operators and the admin write.
struct ChannelMapAccess: Sendable {
    let store: Store
    let clock: Clock

    func reading<T: Sendable>(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ body: @escaping @Sendable (Repositories) throws -> T
    ) async throws -> T {
        let now = clock.nowMillis
        return try await store.read { repositories in
            try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false).requireReadContent(now: now, repositories)
            return try body(repositories)
        }
    }

    /// Writes with the channel row locked, so the key limit holds under concurrent writers, and
    /// tells the joined members what `body` changed (`event`: its type and payload; nil when the
    /// write changed nothing).
    func writing<T: Sendable>(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String,
        _ body: @escaping @Sendable (Repositories) throws -> (result: T, event: (EventType, EventPayload)?)
    ) async throws -> T {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(kind, channelURL, caller, repositories)
            try context.access.requireManage(channelURL)
            let (result, event) = try body(repositories)
            if let (type, payload) = event { ChannelEvents.channel(type, channelURL, kind: kind, payload: payload, repositories) }
            return result
        }
    }
}
