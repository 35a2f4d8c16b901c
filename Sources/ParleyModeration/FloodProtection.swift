import ParleyCore
import ParleyStore

/// Flood protection (API.md §4.2, §7.6): no user sends more than the limit into one channel
/// within any one-second span, on any instance. Asked by the send path in its transaction, so a
/// send that fails later does not count.
public enum FloodProtection {
    static let window: Int64 = 1000

    /// A refused send: its 429/500910, with the seconds until one would be admitted.
    public struct Refusal: Error {
        public let error: ParleyError
    }

    /// Admits the send or throws a `Refusal`. `limit` 0 turns it off.
    public static func admit(
        _ userID: String, into kind: ChannelKind, _ channelURL: String, limit: Int, now: Int64, _ repositories: Repositories
    ) throws {
        guard limit > 0,
            let admittedAt = try repositories.sendRates.admit(kind, channelURL, userID, now: now, limit: limit, window: window)
        else { return }
        throw Refusal(error: ParleyError.rateLimited(retryAfter: Int(max(1, (admittedAt - now + 999) / 1000))))
    }

    /// At most one `alert:user_message_rate_limit_exceeded` a minute per sender and channel.
    static let alertEvery: Int64 = 60_000

    /// Raises the webhook alert for a refused send, in a transaction of its own (the send's
    /// rolled back), unless the sender was alerted about this channel within the last minute.
    public static func alert(_ userID: String, in kind: ChannelKind, _ channelURL: String, now: Int64, _ store: Store) async {
        try? await store.transaction { repositories in
            guard try repositories.sendRates.markAlerted(kind, channelURL, userID, now: now, every: alertEvery),
                let user = try repositories.users.basicUsers([userID]).first
            else { return }
            repositories.events.append(.webhookOnly(.rateLimitExceeded, channelURL: channelURL, channelKind: kind, payload: .user(user)))
        }
    }
}
