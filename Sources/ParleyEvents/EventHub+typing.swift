import ParleyCore
import ParleyStore

/// Typing indicators (API.md §6.4): starts throttled, ends on a message or expiry, delivered to
/// the channel's joined members on this instance.
extension EventHub {
    /// Whether a typing start of this user in this channel is passed on now (see `TypingStates`).
    func admitTypingStart(_ userID: String, in channelURL: String) -> Bool {
        state.withLock { $0.typing.admitStart(.init(channelURL: channelURL, userID: userID), now: .now) }
    }

    /// A typing notification from any instance (this one included).
    func received(_ notice: TypingNotice, ts: Int64) async throws {
        let changes: [TypingChange] = state.withLock { state in
            if let userID = notice.offlineUserID { return state.typing.endedAll(of: userID, ts: ts) }
            guard let channelURL = notice.channelURL, let user = notice.user, let started = notice.started else { return [] }
            if started { return state.typing.started(user, in: channelURL, now: .now, ts: ts).map { [$0] } ?? [] }
            return state.typing.ended(.init(channelURL: channelURL, userID: user.userID), ts: ts).map { [$0] } ?? []
        }
        try await deliverTyping(changes)
    }

    func expireTyping(ts: Int64) async throws {
        let changes = state.withLock { $0.typing.expired(now: .now, ts: ts) }
        try await deliverTyping(changes)
    }

    /// To the local sockets of the channels' joined members (one read for the whole batch), except
    /// those who block the typist: what a blocked user does never reaches the blocker (API.md §7.3).
    func deliverTyping(_ changes: [TypingChange]) async throws {
        guard !changes.isEmpty, !localUserIDs.isEmpty else { return }
        let channelURLs = Array(Set(changes.map(\.channelURL)))
        let typists = Array(Set(changes.map(\.user.userID)))
        let (members, blockers) = try await store.read { repositories in
            (try self.members.members(of: channelURLs, repositories), try repositories.blocks.blockers(of: typists))
        }
        state.withLock { state in
            for change in changes {
                let typistBlockers = blockers[change.user.userID] ?? []
                for member in members[change.channelURL] ?? [] where member.state == .joined && !typistBlockers.contains(member.userID) {
                    state.subscriptions[member.userID]?.values.forEach { $0.deliver(.typing(change)) }
                }
            }
        }
    }
}
