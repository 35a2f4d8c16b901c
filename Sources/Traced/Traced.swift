@_exported import Tracing

/// Child spans only inside a recorded trace (issue 37). Creating a span costs the tracer its ids,
/// sampling decision and bookkeeping even when the trace is not sampled: measured with the user
/// lookup at 1 % sampling (`scripts/bench/tracing`), spans for every transaction and call of every
/// request cost 10–25 µs of the server's 60 per request (0.83× of tracing off). The root spans
/// (a request's, an event batch's) decide; what runs inside a recorded one marks the task, and
/// the spans below it are made only then.
public enum Traced {
    /// Whether the current task runs inside a recorded span.
    @TaskLocal public static var isRecording = false

    /// `body` inside a child span named `name` when the task runs inside a recorded span;
    /// otherwise `body` alone, with no span (`nil`).
    public static func span<T>(
        _ name: String, ofKind kind: SpanKind = .internal, isolation: isolated (any Actor)? = #isolation,
        _ body: ((any Span)?) async throws -> T
    ) async rethrows -> T {
        guard isRecording else { return try await body(nil) }
        return try await withSpan(name, ofKind: kind) { span in try await body(span) }
    }

    /// `body` inside a span that starts or continues a trace (`context`); what runs in it is
    /// marked recording when the tracer records the span.
    public static func root<T>(
        _ name: String, context: InstrumentationContext, ofKind kind: SpanKind, isolation: isolated (any Actor)? = #isolation,
        _ body: (any Span) async throws -> T
    ) async rethrows -> T {
        try await withSpan(name, context: context, ofKind: kind) { span in
            guard span.isRecording else { return try await body(span) }
            return try await $isRecording.withValue(true) { try await body(span) }
        }
    }
}
