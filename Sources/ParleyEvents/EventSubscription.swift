import ParleyCore
import Synchronization

/// One socket's feed: what the hub delivers to its user, after its replay, in id order.
///
/// The replay (at most `maxReplay` events) is queued whole; beyond it the client may fall at
/// most `queueLimit` deliveries behind before the feed closes, so a slow client costs bounded
/// memory and, cut off, can still resume with `after`.
public final class EventSubscription: Sendable {
    public let socketID: String
    public let userID: String
    private let deliveries: AsyncStream<Delivery>
    private let continuation: AsyncStream<Delivery>.Continuation
    private let state: Mutex<State>
    private let queueLimit: Int

    struct State {
        /// Deliveries held back while the replay is read; nil once live.
        var heldBack: [Delivery]? = []
        /// Events up to here the client already has (its `after`).
        var skipThrough: Int64 = 0
        var isClosed = false
        /// Queued and not yet taken by the socket: all of them, and those of the replay.
        var queued = 0
        var replayQueued = 0
    }
    /// Called when the client falls `queueLimit` deliveries behind: the socket must close (the
    /// client resumes with `after`), since the server will not hold more for it.
    private let onOverflow: @Sendable () -> Void

    init(socketID: String, userID: String, queueLimit: Int, onOverflow: @escaping @Sendable () -> Void) {
        self.socketID = socketID
        self.userID = userID
        self.queueLimit = queueLimit
        self.onOverflow = onOverflow
        self.state = Mutex(State())
        // Bounded by the accounting below, not by the stream.
        (deliveries, continuation) = AsyncStream.makeStream(of: Delivery.self)
    }

    /// What to send, in order; ends when the subscription closes. One consumer, which reports
    /// each delivery it takes with `took()`.
    public func makeIterator() -> AsyncStream<Delivery>.AsyncIterator {
        deliveries.makeAsyncIterator()
    }

    /// The socket took a delivery off the queue.
    public func took() {
        state.withLock { state in
            state.queued -= 1
            if state.replayQueued > 0 { state.replayQueued -= 1 }
        }
    }

    func skip(through id: Int64) {
        state.withLock { $0.skipThrough = id }
    }

    /// From the hub.
    func deliver(_ delivery: Delivery) {
        let overflowed = state.withLock { state in
            guard !state.isClosed else { return false }
            if case .event(let event, _) = delivery, event.eventID <= state.skipThrough { return false }
            if state.heldBack != nil {
                state.heldBack!.append(delivery)
                return state.heldBack!.count > queueLimit ? close(&state) : false
            }
            guard state.queued - state.replayQueued < queueLimit else { return close(&state) }
            state.queued += 1
            continuation.yield(delivery)
            return false
        }
        if overflowed { onOverflow() }
    }

    /// Sends the replay, then what arrived meanwhile, and goes live.
    func finishReplay(_ replay: [Delivery]) {
        state.withLock { state in
            guard !state.isClosed, let heldBack = state.heldBack else { return }
            state.heldBack = nil
            state.queued += replay.count + heldBack.count
            state.replayQueued = replay.count
            for delivery in replay + heldBack { continuation.yield(delivery) }
        }
    }

    /// Ends the feed.
    public func finish() {
        state.withLock { $0.isClosed = true }
        continuation.finish()
    }

    /// Ends the feed for overflowing; always true (the caller then runs `onOverflow`).
    private func close(_ state: inout State) -> Bool {
        state.isClosed = true
        continuation.finish()
        return true
    }
}
