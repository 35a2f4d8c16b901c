import Metrics

/// Link-preview figures on `/metrics` (created on first use, after the server has bootstrapped
/// its metrics backend).
enum PreviewMetrics {
    /// Pages fetched (cache misses).
    static let fetches = Counter(label: "parley_link_preview_fetches_total")
    /// Fetches that were refused by the guard, failed, or found no HTML page.
    static let errors = Counter(label: "parley_link_preview_errors_total")
    /// Previews not made because their sender had too many waiting (`PreviewQueue`).
    static let dropped = Counter(label: "parley_link_preview_dropped_total")
    static let cacheHits = Counter(label: "parley_link_preview_cache_hits_total")

    /// Makes the counters the dashboard and alerts read exist at 0 from the start, so that
    /// `rate()` and `increase()` see their first increment (called when the service starts).
    static func prepare() {
        _ = (fetches, errors, dropped, cacheHits)
    }
}
