import DequeModule

extension ConnectionPool {
    /// How often waiting jobs and queued statements are checked against their deadlines.
    static let sweepInterval: Duration = .milliseconds(100)

    /// Whether the caller, holding the lock, must start the sweeper (it runs while anything waits).
    func startSweepingIfNeeded(_ state: inout State) -> Bool {
        guard !state.sweeping, !state.isClosed else { return false }
        state.sweeping = true
        return true
    }

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
            let (waiters, jobs, done) = state.withLock { state -> ([Waiter], [PipelinedJob], Bool) in
                var waiters: [Waiter] = []
                while let first = state.waiters.first, first.deadline <= now { waiters.append(state.waiters.removeFirst()) }
                if !waiters.isEmpty { PoolMetrics.publish(state) }
                var jobs: [PipelinedJob] = []
                while let first = state.pipelineQueue.first, first.deadline <= now { jobs.append(state.pipelineQueue.removeFirst()) }
                let done = state.isClosed || (state.waiters.isEmpty && state.pipelineQueue.isEmpty)
                if done { state.sweeping = false }
                return (waiters, jobs, done)
            }
            let timeout = busyError("none within \(configuration.acquireTimeout)")
            for waiter in waiters { waiter.continuation.resume(throwing: timeout) }
            for job in jobs { job.complete(.failure(timeout)) }
            if done { return }
        }
    }
}
