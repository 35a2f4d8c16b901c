/// When a failed delivery (a webhook, API.md §10.2; a push, §12.6) is tried again: a doubling
/// backoff with jitter, which a receiver's `Retry-After` may lengthen but never shorten. Taken as given, `Retry-After: 0`, a
/// negative number or a date in the past made every delivery due again at the next poll (200
/// deliveries: 1,344 POST/s for up to a day, issue 29). A `Retry-After` beyond `maxRetryAfter`
/// counts as that much, so one answer cannot park a delivery until it expires.
public struct RetryBackoff: Sendable, Equatable {
    public var first: Duration
    /// The longest wait of the schedule.
    public var max: Duration
    public var maxRetryAfter: Duration

    public init(first: Duration, max: Duration, maxRetryAfter: Duration) {
        self.first = first
        self.max = max
        self.maxRetryAfter = maxRetryAfter
    }

    /// The wait after a delivery's `attempts`-th failed attempt. `jitter` (half to all of the
    /// schedule's step) is drawn at random by the dispatcher; a parameter so the rule is pure.
    public func delay(afterAttempts attempts: Int, retryAfter: Duration?, jitter: Double = .random(in: 0.5...1)) -> Duration {
        let scheduled = step(attempts) * jitter
        guard let retryAfter else { return scheduled }
        return Swift.max(scheduled, Swift.min(retryAfter, maxRetryAfter))
    }

    /// The schedule's ceiling: `first`, doubled per attempt after the first, at most `max`.
    public func step(_ attempts: Int) -> Duration {
        Swift.min(first * (1 << Swift.min(Swift.max(attempts - 1, 0), 20)), max)
    }
}
