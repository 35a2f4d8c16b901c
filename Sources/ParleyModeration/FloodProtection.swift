import ParleyCore
import ParleyStore

/// Flood protection (API.md §4.2, §7.6): no user sends more than the limit into one channel
/// within any one-second span, on any instance. Asked by the send path in its transaction, so a
/// send that fails later does not count.
public enum FloodProtection {
    static let window: Int64 = 1000

    /// Admits the send or throws 429/500910 with the seconds until one would be admitted.
    /// `limit` 0 turns it off.
    public static func admit(
        _ userID: String, into kind: ChannelKind, _ channelURL: String, limit: Int, now: Int64, _ repositories: Repositories
    ) throws {
        guard limit > 0,
            let admittedAt = try repositories.sendRates.admit(kind, channelURL, userID, now: now, limit: limit, window: window)
        else { return }
        throw ParleyError.rateLimited(retryAfter: Int(max(1, (admittedAt - now + 999) / 1000)))
    }
}
