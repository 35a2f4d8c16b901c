import Metrics

/// Translation figures on `/metrics` (created on first use, after the server has bootstrapped
/// its metrics backend).
enum TranslationMetrics {
    /// Requests sent to the provider (each retry counts).
    static let calls = Counter(label: "parley_translation_calls_total")
    /// Requests that failed (the provider refused, failed or did not answer in time).
    static let errors = Counter(label: "parley_translation_errors_total")
    /// Translations refused without a call while the breaker is open.
    static let shed = Counter(label: "parley_translation_shed_total")

    /// Makes the counters the dashboard and alerts read exist at 0 from the start, so that
    /// `rate()` and `increase()` see their first increment (called when the service starts).
    static func prepare() {
        _ = (calls, errors, shed)
    }
}
