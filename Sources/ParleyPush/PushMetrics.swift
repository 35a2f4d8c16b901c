import Metrics
import ParleyCore

/// Push figures on `/metrics` (API.md §12.6). Labels carry the provider and a reason, never a
/// token or text.
enum PushMetrics {
    /// Pushes waiting (queued messages and devices to retry), counted in the database (so across
    /// instances) every `depthInterval`.
    static let pending = Gauge(label: "parley_push_queue_pending")
    static let depthInterval: Duration = .seconds(15)
    /// Pushes dropped at the 10-minute limit.
    static let expired = Counter(label: "parley_push_expired_total")

    static func sent(_ provider: PushTokenType) -> Counter {
        Counter(label: "parley_push_sent_total", dimensions: [("provider", provider.rawValue)])
    }

    static func failed(_ provider: PushTokenType, _ reason: String) -> Counter {
        Counter(label: "parley_push_failed_total", dimensions: [("provider", provider.rawValue), ("reason", reason)])
    }

    static func tokensRemoved(_ provider: PushTokenType) -> Counter {
        Counter(label: "parley_push_tokens_removed_total", dimensions: [("provider", provider.rawValue)])
    }

    /// From the message's commit to the provider's answer.
    static func latency(_ provider: PushTokenType) -> Timer {
        Timer(label: "parley_push_latency_seconds", dimensions: [("provider", provider.rawValue)])
    }
}
