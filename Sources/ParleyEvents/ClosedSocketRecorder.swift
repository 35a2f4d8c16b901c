import Logging
import OwnedTasks
import ParleyCore
import ParleyStore
import Synchronization

/// Records closed sockets in batches: one transaction for the sockets that closed while the one
/// before it ran. A server restart or a proxy dropping its connections closes thousands of
/// sockets at once; a transaction each queued them behind the pool until they timed out (7,068
/// of 10,000 failed in scripts/bench/events), leaving rows for the heartbeat to reconcile.
final class ClosedSocketRecorder: Sendable {
    private struct Waiting {
        var socketIDs: [String] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        var isWriting = false
    }
    private let waiting = Mutex(Waiting())
    private let store: Store
    private let clock: Clock
    private let logger: Logger
    /// What becomes of the users who went offline (their typing ends, their open channels).
    private let offline: @Sendable ([String], Repositories) throws -> Void
    private let announce: @Sendable ([String]) async throws -> Void

    /// The most sockets one transaction records.
    static let batchLimit = 1000

    /// Runs the writer while closes wait.
    private let tasks: TaskOwner

    init(
        store: Store, clock: Clock, logger: Logger, tasks: TaskOwner, offline: @escaping @Sendable ([String], Repositories) throws -> Void,
        announce: @escaping @Sendable ([String]) async throws -> Void
    ) {
        self.tasks = tasks
        self.store = store
        self.clock = clock
        self.logger = logger
        self.offline = offline
        self.announce = announce
    }

    /// Returns once the socket's close is recorded (or failed to be: the heartbeat's
    /// reconciliation removes what a failed write left).
    func record(_ socketID: String) async {
        await withCheckedContinuation { continuation in
            let startWriting = waiting.withLock { state in
                state.socketIDs.append(socketID)
                state.waiters.append(continuation)
                defer { state.isWriting = true }
                return !state.isWriting
            }
            if startWriting { tasks.spawn("recording closed sockets") { await self.writeWhileWaiting() } }
        }
    }

    private func writeWhileWaiting() async {
        while true {
            let (socketIDs, waiters) = waiting.withLock { state -> ([String], [CheckedContinuation<Void, Never>]) in
                let count = min(state.socketIDs.count, Self.batchLimit)
                defer {
                    state.socketIDs.removeFirst(count)
                    state.waiters.removeFirst(count)
                    if count == 0 { state.isWriting = false }
                }
                return (Array(state.socketIDs.prefix(count)), Array(state.waiters.prefix(count)))
            }
            guard !socketIDs.isEmpty else { return }
            await write(socketIDs)
            for waiter in waiters { waiter.resume() }
        }
    }

    private func write(_ socketIDs: [String]) async {
        let (now, offline) = (clock.nowMillis, offline)
        do {
            let users = try await store.transaction { repositories in
                let users = try repositories.presence.disconnected(socketIDs: socketIDs, now: now)
                try offline(users, repositories)
                return users
            }
            try await announce(users)
        } catch {
            logger.warning("recording closed sockets failed", metadata: ["sockets": "\(socketIDs.count)", "error": "\(error)"])
        }
    }
}
