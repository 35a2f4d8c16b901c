import ParleyCore
import ParleyStore

/// Typing, as clients ask for it over REST or their socket (API.md §6.4).
extension Realtime {
    /// `typing_start` / `typing_end` (REST and socket frames): joined members of group channels
    /// only; a start, which shows something to the others, not while muted or the channel is
    /// frozen (`ContributionRules`). A start is passed on at most once per throttle period; the
    /// table that decides it is the one every instance keeps from the typing notifications, so
    /// the throttle holds across instances (up to a notification's delay).
    public func typing(_ caller: Caller, _ channelURL: String, userIDs: [String], started: Bool) async throws {
        for userID in userIDs { try caller.requireActingAs(userID) }
        let now = clock.nowMillis
        let users = try await store.read { repositories in
            guard let channel = try repositories.groupChannels.find(channelURL) else { throw ChannelAccess.notFound(channelURL) }
            let joined = Set(try repositories.events.joinedMembers(channelURL))
            if let callerID = caller.userID, !channel.isPublic, !joined.contains(callerID) { throw ChannelAccess.notFound(channelURL) }
            for userID in userIDs where !joined.contains(userID) {
                throw ParleyError.forbidden("\"\(userID)\" is not a joined member of \"\(channelURL)\".")
            }
            if started {
                let muted = try repositories.mutes.restricted(.group, channelURL, among: userIDs, now: now)
                for userID in userIDs {
                    let isOperator = try repositories.groupChannelMembers.state(channelURL, userID)?.isOperator ?? false
                    try ContributionRules.require(
                        isMuted: muted.contains(userID), channelFrozen: channel.freeze, exemptFromFreeze: caller.isAdmin || isOperator)
                }
            }
            return try repositories.users.basicUsers(userIDs)
        }
        // Checked only now, so that a refused request does not use up the user's throttle.
        let admitted = started ? users.filter { hub.admitTypingStart($0.userID, in: channelURL) } : users
        guard !admitted.isEmpty else { return }
        let payloads = try admitted.map { try Self.json(TypingNotice(channelURL: channelURL, user: $0, started: started)) }
        try await store.transaction { repositories in
            for payload in payloads { try repositories.events.notify(EventRepository.typingChannel, payload) }
        }
    }
}
