import ParleyCore
import Synchronization

/// One socket's feed: what the hub delivers to its user, after its replay, in id order.
public final class EventSubscription: Sendable {
    public let socketID: String
    public let userID: String
    /// What to send, in order. Ends when the subscription closes.
    public let deliveries: AsyncStream<Delivery>
    private let continuation: AsyncStream<Delivery>.Continuation
    private let state: Mutex<State>
    private let queueLimit: Int

    struct State {
        /// Deliveries held back while the replay is read; nil once live.
        var heldBack: [Delivery]? = []
        /// Events up to here the client already has (its `after`).
        var skipThrough: Int64 = 0
        var isClosed = false
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
        (deliveries, continuation) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .bufferingOldest(queueLimit))
    }

    func skip(through id: Int64) {
        state.withLock { $0.skipThrough = id }
    }

    /// From the hub.
    func deliver(_ delivery: Delivery) {
        let overflowed = state.withLock { state in
            guard !state.isClosed else { return false }
            if case .event(let event) = delivery, event.eventID <= state.skipThrough { return false }
            if state.heldBack != nil {
                state.heldBack!.append(delivery)
                return state.heldBack!.count > queueLimit ? close(&state) : false
            }
            if case .dropped = continuation.yield(delivery) { return close(&state) }
            return false
        }
        if overflowed { onOverflow() }
    }

    /// Sends the replay, then what arrived meanwhile, and goes live.
    func finishReplay(_ replay: [Delivery]) {
        let overflowed = state.withLock { state in
            guard !state.isClosed, let heldBack = state.heldBack else { return false }
            state.heldBack = nil
            for delivery in replay + heldBack {
                if case .dropped = continuation.yield(delivery) { return close(&state) }
            }
            return false
        }
        if overflowed { onOverflow() }
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
