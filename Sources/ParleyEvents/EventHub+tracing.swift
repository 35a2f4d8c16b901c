import ParleyCore
import Traced

extension EventHub {
    /// A span per batch handed to the sockets (issue 37): the batch's events come from many
    /// requests, so it starts a trace of its own. A no-op without a tracer.
    func dispatch(_ events: [Event], through position: Int64) async throws {
        guard !events.isEmpty else { return try await dispatchBatch(events, through: position) }
        try await Traced.root("events.deliver", context: .topLevel, ofKind: .internal) { span in
            if span.isRecording {
                span.attributes["parley.events"] = events.count
                span.attributes["parley.event_id.last"] = Int(position)
            }
            try await dispatchBatch(events, through: position)
        }
    }
}
