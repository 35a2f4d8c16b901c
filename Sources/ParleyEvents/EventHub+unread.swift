import ParleyCore
import ParleyStore

/// The unread counts of the users with local sockets: which counts a batch moved is noted while
/// it is delivered (`UnreadCadence`), and the counts go out in rounds.
extension EventHub {
    /// Sends the counts moved meanwhile after `delay`, as `UnreadCadence.nextRound` decided.
    func scheduleUnreadCounts(after delay: Duration) {
        tasks.spawn("the next round of unread counts") { [self] in
            if delay > .zero { try? await Task.sleep(for: delay) }
            let watch = state.withLock { $0.unread.takeRound(now: .now) }
            do {
                try await deliverUnreadCounts(watch)
            } catch {
                logger.warning("unread counts failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// `unread_count_changed` to the local users whose counts the events moved.
    private func deliverUnreadCounts(_ watch: UnreadWatch) async throws {
        let now = clock.nowMillis
        let counts = try await store.read { try $0.receipts.unreadSummary(watch.pairs) }
        state.withLock { state in
            for count in counts {
                let change = UnreadChange(
                    channelURL: count.channelURL, unreadMessageCount: count.unreadMessages, unreadMentionCount: count.unreadMentions,
                    totalUnreadMessageCount: count.totalUnreadMessages, ts: now
                )
                state.subscriptions[count.userID]?.values.forEach { $0.deliver(.unread(change)) }
            }
        }
    }
}
