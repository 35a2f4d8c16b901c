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
}
