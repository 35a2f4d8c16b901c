import HTTPWire
import NIOCore
import Synchronization

/// The timers of one event loop's event-stream sockets: a single repeated task looks at every
/// socket on the loop (pings, silent peers, session expiry), rather than a timer per socket.
///
/// Why: NIO cancels a scheduled task by searching its loop's timer heap from the start, and every
/// HTTP request schedules and cancels deadlines (`RequestDeadlineHandler`, `RequestBytesWatcher`).
/// A repeated timer per socket put 5,000 entries in each loop's heap with 10,000 idle sockets,
/// and cost every request about 10 µs of CPU (scripts/bench/events: user lookups at 49 µs of
/// server CPU a request against 38 µs without the sockets, p99 1.3–1.5×).
///
/// The sockets are spread over `slices`, one looked at per tick, so that a loop with thousands
/// of sockets never stalls its requests for a whole sweep at once.
final class LoopSweeper: Sendable {
    private let eventLoop: any EventLoop
    private let state = Mutex(State())

    private struct State {
        var slices = [[ObjectIdentifier: EventSocket]](repeating: [:], count: LoopSweeper.slices)
        /// Which slice each socket is in.
        var sliceOf: [ObjectIdentifier: Int] = [:]
        var nextSlice = 0
        var added = 0
        /// How often each socket is looked at, and the repeated task that does it a slice at a time.
        var period: TimeAmount?
        var task: RepeatedTask?
    }

    /// The longest a socket waits for a look: a session's expiry closes its socket within this.
    static let longestPeriod = TimeAmount.seconds(1)
    static let slices = 8

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The sweeper of `eventLoop`.
    static func of(_ eventLoop: any EventLoop) -> LoopSweeper {
        sweepers.of(eventLoop)
    }

    private static let sweepers = PerEventLoop { LoopSweeper($0) }

    /// Looks at `socket` at least every `interval` (or every `longestPeriod`) until `remove`. The
    /// loop's period only ever shortens: in a server every socket has the same settings (tests
    /// sharing the loops set shorter ones).
    func add(_ socket: EventSocket, every interval: TimeAmount) {
        let period = min(interval, Self.longestPeriod)
        let key = ObjectIdentifier(socket)
        state.withLock { state in
            let slice = state.added % Self.slices
            state.added &+= 1
            state.slices[slice][key] = socket
            state.sliceOf[key] = slice
            if let current = state.period, current <= period { return }
            state.task?.cancel()
            state.period = period
            let tick = TimeAmount.nanoseconds(max(1_000_000, period.nanoseconds / Int64(Self.slices)))
            state.task = eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { [self] _ in sweep() }
        }
    }

    func remove(_ socket: EventSocket) {
        let key = ObjectIdentifier(socket)
        state.withLock { state in
            guard let slice = state.sliceOf.removeValue(forKey: key) else { return }
            state.slices[slice][key] = nil
        }
    }

    /// On the loop: the next slice. Its sockets are looked at outside the lock: a look may close
    /// its socket, which removes it.
    private func sweep() {
        let now = NIODeadline.now()
        let sockets = state.withLock { state in
            defer { state.nextSlice = (state.nextSlice + 1) % Self.slices }
            return Array(state.slices[state.nextSlice].values)
        }
        for socket in sockets { socket.look(at: now) }
    }
}
