import Metrics
import ParleyCore

/// Push figures on `/metrics` (API.md §12.6), created on first use (after the server has
/// bootstrapped its metrics backend). Labels carry the provider and a reason, never a token or
/// text. The per-push ones are made once per provider: a lookup per push was measurable.
enum PushMetrics {
    /// Pushes waiting (queued messages and devices to retry), counted in the database (so across
    /// instances) every `depthInterval`.
    static let pending = Gauge(label: "parley_push_queue_pending")
    static let depthInterval: Duration = .seconds(15)
    /// Pushes dropped at the 10-minute limit.
    static let expired = Counter(label: "parley_push_expired_total")

    private static func perProvider<Metric>(_ make: (PushTokenType) -> Metric) -> [PushTokenType: Metric] {
        Dictionary(uniqueKeysWithValues: PushTokenType.allCases.map { ($0, make($0)) })
    }

    static let sent = perProvider { Counter(label: "parley_push_sent_total", dimensions: [("provider", $0.rawValue)]) }
    static let tokensRemoved = perProvider { Counter(label: "parley_push_tokens_removed_total", dimensions: [("provider", $0.rawValue)]) }
    /// From the message's commit to the provider's answer.
    static let latency = perProvider { Timer(label: "parley_push_latency_seconds", dimensions: [("provider", $0.rawValue)]) }

    /// Makes the counters the alerts watch at 0 when the dispatcher starts (one appearing only at
    /// its first increment hides that increment from `rate()`).
    static func prepare() {
        _ = (expired, sent, tokensRemoved, latency)
        for provider in PushTokenType.allCases { _ = failed(provider, "credentials") }
    }

    /// Failures are few: their counters are looked up as they come.
    static func failed(_ provider: PushTokenType, _ reason: String) -> Counter {
        Counter(label: "parley_push_failed_total", dimensions: [("provider", provider.rawValue), ("reason", reason)])
    }
}
