import ParleyCore

/// Smart throttling of open channels (API.md §8.4): in each user's live stream, at most `limit`
/// messages per second and channel from other participants. Their own messages, admin messages
/// and operators' messages always pass; history keeps everything.
///
/// Counts live for the current second only (one table, emptied when the second turns), so the
/// memory is bounded by the deliveries of one second.
struct SmartThrottle {
    let limit: Int
    private var second: Int64 = 0
    private var counts: [Key: Int] = [:]

    private struct Key: Hashable {
        let userID: String
        let channelURL: String
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether `event` goes to `userID` at `nowMillis` (wall time); counts it if so.
    mutating func admits(_ event: Event, to userID: String, nowMillis: Int64) -> Bool {
        guard limit > 0, event.channelKind == .open, event.type == .messageReceived, case .message(let message) = event.payload,
            message.type != .admin, !message.isOpMsg, let senderID = message.sender?.userID, senderID != userID,
            let channelURL = event.channelURL
        else { return true }
        let now = nowMillis / 1000
        if now != second {
            second = now
            counts.removeAll(keepingCapacity: true)
        }
        let key = Key(userID: userID, channelURL: channelURL)
        let count = counts[key, default: 0]
        guard count < limit else { return false }
        counts[key] = count + 1
        return true
    }
}
