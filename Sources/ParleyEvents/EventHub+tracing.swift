import ParleyCore
import Traced

extension EventHub {
    /// A span for the batches handed to the sockets that are picked to start a trace (issue 37):
    /// a batch's events come from many requests, so it is a trace of its own.
    func dispatch(_ events: [Event], through position: Int64) async throws {
        guard !events.isEmpty else { return try await dispatchBatch(events, through: position) }
        try await Traced.root("events.deliver", parent: nil, ofKind: .internal) { span in
            span?.attributes["parley.events"] = events.count
            span?.attributes["parley.event_id.last"] = Int(position)
            try await dispatchBatch(events, through: position)
        }
    }
}
