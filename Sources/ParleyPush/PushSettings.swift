import ParleyCore

/// How pushes are delivered (API.md §12.6).
public struct PushSettings: Sendable {
    /// A push not delivered within this after its message was sent is dropped.
    public var deliveryLimit: Duration = .seconds(600)
    /// How often the queue is looked at for expired pushes.
    public var sweepInterval: Duration = .seconds(60)
    /// Queued messages (and devices to retry) claimed at once by an instance.
    public var batch = 64
    /// Members read per query when deciding who receives a push.
    public var candidatePage = 1000
    /// Provider requests in flight at once per instance.
    public var concurrency = 256
    /// How long a claim keeps other instances off a push; past it (the instance died), the push
    /// is due again.
    public var lease: Duration = .seconds(60)
    /// How often an idle instance looks for due pushes.
    public var pollInterval: Duration = .milliseconds(100)
    public var firstBackoff: Duration = .seconds(1)
    public var maxBackoff: Duration = .seconds(60)
    /// A provider's `Retry-After` counts for at most this.
    public var maxRetryAfter: Duration = .seconds(300)

    var backoff: RetryBackoff { RetryBackoff(first: firstBackoff, max: maxBackoff, maxRetryAfter: maxRetryAfter) }

    public init() {}
}
