import ParleyCore
import ParleyStore

/// Auto event messages (API.md §14.7, Sendbird's `/v3/applications/settings/auto_event_message`):
/// the admin's settings, and the admin message an event posts in its group channel, written in
/// the event's transaction (silent: no unread count, no push), so the channel tells what happened
/// exactly once, with the event.
public struct AutoEventMessageService: Sendable {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func settings(_ caller: Caller) async throws -> AutoEventMessages {
        try caller.requireAdmin()
        return try await store.read { try $0.autoEventMessages.settings() }
    }

    /// Applies the given settings over the stored ones.
    public func update(_ caller: Caller, _ change: @escaping @Sendable (inout AutoEventMessages) throws -> Void) async throws
        -> AutoEventMessages
    {
        try caller.requireAdmin()
        return try await store.transaction { repositories in
            var settings = try repositories.autoEventMessages.settings()
            try change(&settings)
            try repositories.autoEventMessages.save(settings)
            return settings
        }
    }

    /// Posts the event's message in the channel when its kind is on (not in an ephemeral channel,
    /// which keeps no messages). Its time is the system clock's: these run deep in membership
    /// changes that carry no clock.
    static func post(_ kind: AutoEventMessages.Kind, _ channelURL: String, users: [BasicUser], _ repositories: Repositories) throws {
        guard let (settings, name, isEphemeral) = try repositories.autoEventMessages.settings(for: channelURL), !isEphemeral,
            let text = settings.text(kind, users: users, channelName: name)
        else { return }
        let new = NewMessage(type: .admin, senderID: nil, message: String(text.prefix(1_000)), isSilent: true)
        let message = try repositories.messages.insert(
            channelURL, new, sender: nil, isOperator: false, now: Clock.system.nowMillis, memberActivityThrottle: 0)
        ChannelEvents.message(.messageReceived, message, repositories)
    }
}
