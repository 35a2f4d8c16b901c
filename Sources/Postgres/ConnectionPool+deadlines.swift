extension ConnectionPool {
    /// How often waiting jobs and queued statements are checked against their deadlines.
    static let sweepInterval: Duration = .milliseconds(100)

    func startSweeping() {
        tasks.spawn("the pool's deadline sweep") { await self.sweep() }
    }

    /// Fails jobs waiting for a connection, and statements waiting for a batch, past their
    /// deadline; stops when nothing waits any more. Both queues are in arrival order with one
    /// timeout, so the overdue are always at their front.
    private func sweep() async {
        while true {
            try? await Task.sleep(for: Self.sweepInterval)
            let now = ContinuousClock.now
            let (waiters, jobs, done) = withBookkeeping { $0.overdue(at: now) }
            let timeout = busyError("none within \(configuration.acquireTimeout)")
            for waiter in waiters { waiter.continuation.resume(throwing: timeout) }
            for job in jobs { job.complete(.failure(timeout)) }
            if done { return }
        }
    }
}
