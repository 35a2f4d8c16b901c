import ParleyCore
import Synchronization

/// Where one socket's deliveries go: the socket's writer. Called in delivery order, one call at
/// a time, from the hub's tasks; it must not block (it queues the write and returns).
public protocol DeliverySink: AnyObject, Sendable {
    /// `replayed`: part of the connection's replay, which the socket takes whole and does not
    /// count against its backlog limit.
    func send(_ delivery: Delivery, replayed: Bool)
}

/// One socket's feed: the hello, its replay, then what the hub delivers to its user, in id
/// order, handed to the socket's `DeliverySink`.
///
/// Deliveries that arrive while the replay is read are held back (at most `holdLimit`; past it
/// the socket closes as too slow and the client resumes with `after`).
public final class EventSubscription: Sendable {
    public let socketID: String
    public let userID: String
    private let sink: any DeliverySink
    private let state: Mutex<State>
    private let holdLimit: Int

    struct State {
        /// Deliveries held back while the replay is read; nil once live.
        var heldBack: [Delivery]? = []
        /// Events up to here the client already has (its `after`).
        var skipThrough: Int64 = 0
        var isClosed = false
    }

    init(socketID: String, userID: String, holdLimit: Int, sink: any DeliverySink) {
        self.socketID = socketID
        self.userID = userID
        self.holdLimit = holdLimit
        self.sink = sink
        self.state = Mutex(State())
    }

    func skip(through id: Int64) {
        state.withLock { $0.skipThrough = id }
    }

    /// From the hub. The sink is called under the lock, so that deliveries from the hub's
    /// several tasks (events, typing, unread counts) reach it one at a time and in order.
    func deliver(_ delivery: Delivery) {
        state.withLock { state in
            guard !state.isClosed else { return }
            // A close goes out at once (even during the replay) and is the last delivery.
            if case .close = delivery {
                state.isClosed = true
                return sink.send(delivery, replayed: false)
            }
            if case .event(let shared) = delivery {
                guard shared.event.eventID > state.skipThrough else { return }
                EventMetrics.delivered.increment()
            }
            guard state.heldBack != nil else { return sink.send(delivery, replayed: false) }
            state.heldBack!.append(delivery)
            if state.heldBack!.count > holdLimit {
                state.isClosed = true
                EventMetrics.slowSocketCloses.increment()
                sink.send(.close(code: StreamCloseCode.tooSlow, reason: "Too slow: reconnect with after"), replayed: false)
            }
        }
    }

    /// Sends the hello and the replay, then what arrived meanwhile, and goes live.
    func start(_ hello: StreamHello, replay: [Delivery]) {
        state.withLock { state in
            guard !state.isClosed, let heldBack = state.heldBack else { return }
            state.heldBack = nil
            sink.send(.hello(hello), replayed: true)
            for delivery in replay { sink.send(delivery, replayed: true) }
            EventMetrics.delivered.increment(by: Int64(replay.count))
            for delivery in heldBack { sink.send(delivery, replayed: false) }
        }
    }

    /// Ends the feed.
    public func finish() {
        state.withLock { $0.isClosed = true }
    }
}
