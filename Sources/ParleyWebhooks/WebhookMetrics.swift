import Metrics
import ParleyCore

/// Webhook figures on `/metrics` (created on first use, after the server has bootstrapped its
/// metrics backend).
enum WebhookMetrics {
    /// Deliveries waiting, counted in the database (so across instances) every `depthInterval`.
    static let pending = Gauge(label: "parley_webhook_queue_pending")
    static let depthInterval: Duration = .seconds(15)
    static let delivered = Counter(label: "parley_webhook_attempts_total", dimensions: [("outcome", "delivered")])
    /// Failed attempts that will be retried.
    static let retried = Counter(label: "parley_webhook_attempts_total", dimensions: [("outcome", "retry")])
    /// Failed attempts after which the delivery is kept as failed.
    static let failed = Counter(label: "parley_webhook_attempts_total", dimensions: [("outcome", "failed")])

    /// Makes the outcome counters at 0 when the dispatcher starts: a counter that appeared only
    /// at its first increment would hide that increment from `rate()` and the alerts.
    static func prepare() {
        _ = (delivered, retried, failed)
    }

    static func count(_ attempts: [WebhookAttempt]) {
        for attempt in attempts {
            if attempt.delivered {
                delivered.increment()
            } else if attempt.retryAt != nil {
                retried.increment()
            } else {
                failed.increment()
            }
        }
    }
}
