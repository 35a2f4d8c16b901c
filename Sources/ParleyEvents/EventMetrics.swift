import Metrics

/// The event stream's figures on `/metrics` (created on first use, after the server has
/// bootstrapped its metrics backend).
public enum EventMetrics {
    /// Sockets registered with this instance's hub.
    static let openSockets = Meter(label: "parley_event_sockets_open")
    /// Events handed to a socket (live or replayed).
    static let delivered = Counter(label: "parley_events_delivered_total")
    /// Open-channel messages left out of a live stream by smart throttling (API.md §8.4).
    static let throttled = Counter(label: "parley_events_dropped_total", dimensions: [("reason", "throttled")])
    /// Sockets closed because their client read too slowly (they resume with `after`).
    public static let slowSocketCloses = Counter(label: "parley_event_slow_socket_closes_total")

    /// Makes the counters the dashboard and alerts read exist at 0 from the start, so that
    /// `rate()` and `increase()` see their first increment (called when the service starts).
    static func prepare() {
        _ = (openSockets, delivered, throttled, slowSocketCloses)
    }
}
