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
        var onOverflow: (@Sendable () -> Void)?
    }

    init(socketID: String, userID: String, queueLimit: Int) {
        self.socketID = socketID
        self.userID = userID
        self.queueLimit = queueLimit
        self.state = Mutex(State())
        (deliveries, continuation) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .bufferingOldest(queueLimit))
    }

    /// Called when the client falls `queueLimit` deliveries behind: the socket must close (the
    /// client resumes with `after`), since the server will not hold more for it.
    public func onOverflow(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onOverflow = handler }
    }

    func skip(through id: Int64) {
        state.withLock { $0.skipThrough = id }
    }

    /// From the hub.
    func deliver(_ delivery: Delivery) {
        let overflow: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.isClosed else { return nil }
            if case .event(let event) = delivery, event.eventID <= state.skipThrough { return nil }
            if state.heldBack != nil {
                state.heldBack!.append(delivery)
                return state.heldBack!.count > queueLimit ? close(&state) : nil
            }
            if case .dropped = continuation.yield(delivery) { return close(&state) }
            return nil
        }
        overflow?()
    }

    /// Sends the replay, then what arrived meanwhile, and goes live.
    func finishReplay(_ replay: [Delivery]) {
        let overflow: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.isClosed, let heldBack = state.heldBack else { return nil }
            state.heldBack = nil
            for delivery in replay + heldBack {
                if case .dropped = continuation.yield(delivery) { return close(&state) }
            }
            return nil
        }
        overflow?()
    }

    /// Ends the feed.
    public func finish() {
        state.withLock { $0.isClosed = true }
        continuation.finish()
    }

    private func close(_ state: inout State) -> (@Sendable () -> Void)? {
        state.isClosed = true
        continuation.finish()
        return state.onOverflow
    }
}
