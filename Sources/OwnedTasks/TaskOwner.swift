import Logging
import ServiceLifecycle
import Synchronization

/// The owner of work that outlives the call that starts it (a late translation, a wake-up after
/// a delay, a socket's frames handed from NIO to Swift concurrency): every such task is spawned
/// here, so that it is known while it runs, its failure is logged with the request that started
/// it, and graceful shutdown waits for it, for at most `shutdownGrace`, before cancelling it.
///
/// A task starts at once whether or not the owner's `run` has begun, so work spawned by a process
/// that never runs its services (an admin command, a test building parts by hand) still runs.
public final class TaskOwner: Service, Sendable {
    /// The request on whose behalf the current task works (set per request by the HTTP layer);
    /// a spawned task's failure is logged with it.
    @TaskLocal public static var requestID: String?

    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let logger: Logger
    public let shutdownGrace: Duration

    public init(logger: Logger, shutdownGrace: Duration = .seconds(10)) {
        self.logger = logger
        self.shutdownGrace = shutdownGrace
    }

    /// Tasks running now.
    public var count: Int { state.withLock { $0.tasks.count } }

    /// Runs `work` in a task of its own, owned here. `name` says what it is in the log.
    public func spawn(_ name: String, _ work: @escaping @Sendable () async throws -> Void) {
        let requestID = Self.requestID
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            // The new task cannot finish before it is recorded: `finished` takes this lock.
            state.tasks[id] = Task { [self] in
                do {
                    try await Self.$requestID.withValue(requestID) { try await work() }
                } catch is CancellationError {
                } catch {
                    var metadata: Logger.Metadata = ["task": "\(name)", "error": "\(error)"]
                    if let requestID { metadata["hb.request.id"] = "\(requestID)" }
                    logger.error("background work failed", metadata: metadata)
                }
                finished(id)
            }
        }
    }

    private func finished(_ id: UInt64) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }

    /// Waits until graceful shutdown begins, then for the tasks running (`drain`).
    public func run() async throws {
        try? await gracefulShutdown()
        await drain(within: shutdownGrace)
    }

    /// Waits up to `grace` for the running tasks (and any they spawn) to end, then cancels those
    /// left and waits for them to notice.
    public func drain(within grace: Duration) async {
        let deadline = ContinuousClock.now + grace
        // Polled: this runs once, at shutdown, and a poll needs no waiter bookkeeping in `finished`.
        while count > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let left = state.withLock { Array($0.tasks.values) }
        if !left.isEmpty {
            logger.warning("cancelling background work at shutdown", metadata: ["tasks": "\(left.count)"])
        }
        for task in left { task.cancel() }
        for task in left { await task.value }
    }
}
