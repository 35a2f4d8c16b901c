import ParleyCore

/// Smart throttling of open channels (API.md §8.4): in each user's live stream, at most `limit`
/// messages per second and channel from other participants. Their own messages, admin messages
/// and operators' messages always pass; history keeps everything.
///
/// The second slides: at most `limit` admitted within any 1,000 ms, not per calendar second
/// (which let twice the limit through around a second's turn: 5 at its end, 5 at the next one's
/// start). Each user and channel keeps the times of its last `limit` admissions; those idle for
/// a second are swept once a second, so the memory is bounded by one second's deliveries.
struct SmartThrottle {
    let limit: Int
    private var lastSweep: Int64 = 0
    /// Admission times (ms), oldest first, at most `limit`.
    private var admitted: [Key: [Int64]] = [:]

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
        if nowMillis - lastSweep >= 1000 {
            admitted = admitted.filter { nowMillis - ($0.value.last ?? 0) < 1000 }
            lastSweep = nowMillis
        }
        let key = Key(userID: userID, channelURL: channelURL)
        var times = admitted[key, default: []]
        if times.count >= limit {
            guard nowMillis - times[0] >= 1000 else { return false }
            times.removeFirst()
        }
        times.append(nowMillis)
        admitted[key] = times
        return true
    }
}
