import Traced
import Tracing

/// The W3C `traceparent` that carries a trace from the request that queued work to the work
/// itself (a webhook delivery, a push), through a column of the queue's row (issue 37).
public enum TraceParent {
    /// The current span's `traceparent` when it is recorded (sampled); nil otherwise, and
    /// always without a tracer.
    public static var current: String? {
        // Outside a recorded trace (always without a tracer) this is all a transaction pays.
        guard Traced.isRecording, let context = InstrumentationContext.current else { return nil }
        var fields: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &fields, using: FieldInjector())
        guard let value = fields["traceparent"], value.hasSuffix("-01") else { return nil }
        return value
    }

    /// A context whose parent is the span `traceparent` names; nil without one.
    public static func context(_ traceParent: String?) -> InstrumentationContext? {
        var context = InstrumentationContext.topLevel
        guard let traceParent else { return nil }
        InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: FieldExtractor())
        return context
    }

    struct FieldInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    struct FieldExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
