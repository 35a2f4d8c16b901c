import DequeModule
import ParleyCore
import Synchronization

/// The message payloads of the events this process has just written, by their stored JSON text:
/// the event hub reads every event back from the log right after its commit, and decoding that
/// JSON again was 7 % of the server's CPU under sends (`scripts/bench/messages`). A hit is exactly
/// what decoding would give (the text is the encoding of the value kept, minus the fields that
/// are never stored), so the memo changes no result; events of other instances, and those that
/// were evicted, are decoded as before. Nothing another instance needs lives here.
final class EventPayloadMemo: Sendable {
    static let shared = EventPayloadMemo(capacity: 1024)

    private struct State {
        var payloads: [String: EventPayload] = [:]
        /// Insertion order, for evicting the oldest: entries of transactions that rolled back
        /// are never read.
        var order: Deque<String> = []
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Keeps `payload`, stored as `text`, for one `take`. Only messages: the other payloads are
    /// rare on the send path and not worth the memory.
    func remember(_ payload: EventPayload, storedAs text: String) {
        guard case .message(var message) = payload else { return }
        // What the stored form leaves out (Message.CodingKeys), as decoding sets it.
        message.isSenderBlockedByViewer = false
        message.channelKind = .group
        state.withLock { state in
            if state.payloads.updateValue(.message(message), forKey: text) == nil { state.order.append(text) }
            while state.order.count > capacity, let oldest = state.order.popFirst() {
                state.payloads[oldest] = nil
            }
        }
    }

    /// The payload stored as `text`, if this process wrote it recently; it is then forgotten.
    func take(_ text: String) -> EventPayload? {
        state.withLock { state in state.payloads.removeValue(forKey: text) }
    }

    /// The payload stored as `text`: remembered, or decoded.
    func payload(storedAs text: String) throws -> EventPayload {
        try take(text) ?? JSONColumn.value(text)
    }
}
