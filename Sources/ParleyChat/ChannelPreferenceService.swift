import ParleyCore
import ParleyStore

/// A member's own view of a channel (API.md §3.5, §3.6): hiding, archiving, resetting history.
public struct ChannelPreferenceService: Sendable {
    let store: Store
    let clock: Clock

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// Hides the channel (or, with `hideAll`, all the user's channels) from the user's list.
    public func hide(
        _ caller: Caller, _ channelURL: String, userID: String, allowAutoUnhide: Bool, hidePreviousMessages: Bool, hideAll: Bool
    ) async throws {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        try await changeOwnMemberships(caller, channelURL, userID: userID, all: hideAll) { repositories, channels in
            try repositories.groupChannelMembers.setHidden(
                channels, userID, allowAutoUnhide ? .hiddenAllowAutoUnhide : .hiddenPreventAutoUnhide,
                hideMessagesBefore: hidePreviousMessages ? now : nil
            )
            // Messages the user no longer sees are not unread either.
            if hidePreviousMessages { try repositories.receipts.markEverythingRead(channels, userID) }
            for channel in channels { ChannelEvents.user(.channelHidden, channel, userID, repositories) }
        }
    }

    public func unhide(_ caller: Caller, _ channelURL: String, userID: String, unhideAll: Bool) async throws {
        try caller.requireActingAs(userID)
        try await changeOwnMemberships(caller, channelURL, userID: userID, all: unhideAll) { repositories, channels in
            try repositories.groupChannelMembers.setHidden(channels, userID, .unhidden, hideMessagesBefore: nil)
            for channel in channels { ChannelEvents.user(.channelUnhidden, channel, userID, repositories) }
        }
    }

    /// The user stops seeing the messages sent before now; returns the new offset.
    public func resetHistory(_ caller: Caller, _ channelURL: String, userID: String, resetAll: Bool) async throws -> Int64 {
        try caller.requireActingAs(userID)
        let now = clock.nowMillis
        try await changeOwnMemberships(caller, channelURL, userID: userID, all: resetAll) { repositories, channels in
            try repositories.groupChannelMembers.resetHistory(channels, userID, now: now)
            try repositories.receipts.markEverythingRead(channels, userID)
        }
        return now
    }

    /// Runs `change` on the user's membership of this channel (403 unless a member) or of all
    /// their channels.
    private func changeOwnMemberships(
        _ caller: Caller, _ channelURL: String, userID: String, all: Bool,
        _ change: @escaping @Sendable (Repositories, [String]) throws -> Void
    ) async throws {
        try await store.transaction { repositories in
            let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
            try context.access.requireView(channelURL)
            guard try repositories.groupChannelMembers.state(channelURL, userID) != nil else {
                throw ParleyError.forbidden("\"\(userID)\" is not a member of \"\(channelURL)\".")
            }
            try change(repositories, all ? try repositories.groupChannelMembers.channelURLs(of: userID) : [channelURL])
        }
    }
}
