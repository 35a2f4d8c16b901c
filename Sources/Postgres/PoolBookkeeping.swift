import DequeModule

/// Something queued in the pool until a deadline: a job waiting for a connection, a statement
/// waiting for a pipeline batch.
protocol PoolQueueItem {
    var id: UInt64 { get }
    var deadline: ContinuousClock.Instant { get }
}

/// Who holds what in a `ConnectionPool`: idle connections, the slots opened, the jobs waiting
/// for a connection and the statements waiting for a batch, in arrival order. Every decision of
/// the pool about them is made here, under the pool's lock, with the time passed in: no I/O, no
/// clock, no continuation resumed, so it is tested on its own (`UnitTests/PoolBookkeepingTests`).
/// The pool acts on what each call returns, after the lock.
struct PoolBookkeeping<Connection, Waiter: PoolQueueItem, Statement: PoolQueueItem> {
    let size: Int
    let maxWaiting: Int
    let maxQueuedStatements: Int
    let maxPipelineRunners: Int

    private(set) var idle: [Connection] = []
    /// Connections lent out, idle or being opened.
    private(set) var opened = 0
    private(set) var waiters: Deque<Waiter> = []
    private(set) var statements: Deque<Statement> = []
    /// Threads draining the statement queue.
    private(set) var pipelineRunners = 0
    /// Whether a sweep for waiters and statements past their deadline is running.
    private(set) var sweeping = false
    private(set) var isClosed = false

    /// Connections lent out or being opened.
    var inUse: Int { opened - idle.count }

    enum Lease {
        /// An idle connection, now the caller's.
        case use(Connection)
        /// A slot reserved: the caller opens a connection in it.
        case open
        /// Queued until a connection is returned or the deadline passes.
        case queued
        case closed, full, cancelled
    }

    /// An idle connection, or the right to open one while under the size, or else (`waiter`
    /// given) a place in the queue. `startSweep`: the caller must start the deadline sweep.
    mutating func lease(queueing waiter: Waiter? = nil, isCancelled: Bool = false) -> (lease: Lease, startSweep: Bool) {
        if isClosed { return (.closed, false) }
        if let connection = idle.popLast() { return (.use(connection), false) }
        if opened < size {
            opened += 1
            return (.open, false)
        }
        guard let waiter else { return (.queued, false) }
        if isCancelled { return (.cancelled, false) }
        if waiters.count >= maxWaiting { return (.full, false) }
        waiters.append(waiter)
        return (.queued, startSweepIfNeeded())
    }

    /// A waiter that gave up (cancelled) leaves the queue, unless it was served meanwhile.
    mutating func abandonWaiter(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }

    /// A healthy connection comes back: to the first waiter (returned), else to the idle ones.
    mutating func returned(_ connection: Connection) -> Waiter? {
        if let waiter = waiters.popFirst() { return waiter }
        if !isClosed { idle.append(connection) }
        return nil
    }

    /// A connection was dropped: the first waiter (returned) opens one in its slot, else the
    /// slot is free.
    mutating func slotFreed() -> Waiter? {
        if let waiter = waiters.popFirst() { return waiter }
        opened -= 1
        return nil
    }

    enum Enqueued: Sendable { case queued, startRunner, full, cancelled }

    /// A statement for the pipeline; `startRunner`: the caller starts one more runner.
    mutating func enqueue(_ statement: Statement, isCancelled: Bool = false) -> (outcome: Enqueued, startSweep: Bool) {
        if isCancelled { return (.cancelled, false) }
        guard statements.count < maxQueuedStatements else { return (.full, false) }
        statements.append(statement)
        let sweep = startSweepIfNeeded()
        guard pipelineRunners < maxPipelineRunners else { return (.queued, sweep) }
        pipelineRunners += 1
        return (.startRunner, sweep)
    }

    /// A statement whose caller gave up leaves the queue, unless a runner took it meanwhile.
    mutating func abandonStatement(_ id: UInt64) -> Statement? {
        guard let index = statements.firstIndex(where: { $0.id == id }) else { return nil }
        return statements.remove(at: index)
    }

    /// The next statements for a runner, at most `limit`; nil (and one runner fewer) when none wait.
    mutating func nextBatch(limit: Int) -> [Statement]? {
        guard !statements.isEmpty else {
            pipelineRunners -= 1
            return nil
        }
        let count = min(statements.count, limit)
        defer { statements.removeFirst(count) }
        return Array(statements.prefix(count))
    }

    /// Takes out the waiters and statements past their deadline at `now` (both queues are in
    /// arrival order with one timeout, so the overdue are at their front); `done`: nothing waits
    /// any more, and the sweep ends.
    mutating func overdue(at now: ContinuousClock.Instant) -> (waiters: [Waiter], statements: [Statement], done: Bool) {
        var lateWaiters: [Waiter] = []
        while let first = waiters.first, first.deadline <= now { lateWaiters.append(waiters.removeFirst()) }
        var lateStatements: [Statement] = []
        while let first = statements.first, first.deadline <= now { lateStatements.append(statements.removeFirst()) }
        let done = isClosed || (waiters.isEmpty && statements.isEmpty)
        if done { sweeping = false }
        return (lateWaiters, lateStatements, done)
    }

    /// Closes the pool: everything waiting and idle is handed back to be failed and released.
    mutating func close() -> (waiters: [Waiter], idle: [Connection], statements: [Statement]) {
        isClosed = true
        defer {
            waiters.removeAll()
            idle.removeAll()
            statements.removeAll()
        }
        return (Array(waiters), idle, Array(statements))
    }

    private mutating func startSweepIfNeeded() -> Bool {
        guard !sweeping, !isClosed else { return false }
        sweeping = true
        return true
    }
}

extension PoolBookkeeping: Sendable where Connection: Sendable, Waiter: Sendable, Statement: Sendable {}
extension PoolBookkeeping.Lease: Sendable where Connection: Sendable {}
