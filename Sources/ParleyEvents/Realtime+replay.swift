import ParleyCore
import ParleyStore

/// The replay a reconnecting socket receives before its live stream (API.md §6.3).
extension Realtime {
    /// The events after `after` up to `through` for the user, or `resync_required` when that is
    /// past retention or too many.
    func replay(for userID: String, after: Int64?, through: Int64) async throws -> [Delivery] {
        guard let after, after < through else {
            // An `after` beyond every id handed out is not a position this server gave.
            guard let after, after > through else { return [] }
            let last = try await store.read { try $0.events.lastID() }
            return after > last ? [.resyncRequired] : []
        }
        let limit = settings.maxReplay
        let (purged, events, blocked, removed) = try await store.read { repositories in
            let events = try repositories.events.replay(for: userID, after: after, through: through, limit: limit + 1)
            let senders = Array(Set(events.compactMap(\.event.messageSenderID)))
            let blocked =
                senders.isEmpty ? [] : try repositories.blocks.blocked(by: userID, among: senders, afterUserID: nil, limit: senders.count)
            let removed = try repositories.messages.removed(among: Array(Set(events.compactMap(\.event.message?.messageID))))
            return (try repositories.events.purgedThrough(), events, Set(blocked.map(\.userID)), removed)
        }
        guard after >= purged, events.count <= limit else { return [.resyncRequired] }
        return events.compactMap { replayed in
            if let message = replayed.event.message {
                if let visibleFrom = replayed.visibleFrom, message.createdAt < visibleFrom { return nil }
                // A replay never shows what a message said once it has been deleted: its
                // `message_deleted` follows, in the replay or in the live stream.
                if removed.contains(message.messageID) { return nil }
            }
            let event = replayed.event.seen(blockingSender: replayed.event.messageSenderID.map(blocked.contains) ?? false)
            return event.type == .sessionEnded ? nil : .event(SharedEvent(event))
        }
    }
}
