import Synchronization
@_exported import Tracing

/// When spans are made (issue 37). Making one costs the tracer its ids, sampling decision and
/// bookkeeping even when the trace is not kept: measured with the user lookup at 1 % sampling
/// (`scripts/bench/tracing`), a span for every transaction and call of every request cost 0.83×
/// of tracing off, and a root span for every request still 0.93×. So Parley picks the requests
/// that start a trace itself, one in `1 / ratio` by a counter (`PARLEY_TRACING_SAMPLE_RATIO`),
/// and makes no span at all for the others; a caller's `traceparent` always gets its root span
/// (the tracer follows the caller's sampled flag). Inside a recorded root, the task is marked
/// and child spans are made.
public enum Traced {
    /// Whether the current task runs inside a recorded span.
    @TaskLocal public static var isRecording = false

    /// Every how many root operations without a caller's trace start one (0: none; tracing off).
    private static let every = Atomic<UInt64>(0)
    private static let counter = Atomic<UInt64>(0)

    /// Starts traces at `ratio` (0…1) of the root operations without a caller's trace.
    public static func startTraces(ratio: Double) {
        every.store(ratio <= 0 ? 0 : UInt64((1 / min(ratio, 1)).rounded()), ordering: .relaxed)
    }

    /// `body` inside a child span named `name` when the task runs inside a recorded span;
    /// otherwise `body` alone, with no span (`nil`).
    public static func span<T>(
        _ name: String, ofKind kind: SpanKind = .internal, isolation: isolated (any Actor)? = #isolation,
        _ body: ((any Span)?) async throws -> T
    ) async rethrows -> T {
        guard isRecording else { return try await body(nil) }
        return try await withSpan(name, ofKind: kind) { span in try await body(span) }
    }

    /// `body` inside a root span: continuing the caller's trace (`parent`, from a `traceparent`),
    /// or, without one, starting a trace when this operation is picked; otherwise no span. What
    /// runs in a recorded one is marked recording.
    public static func root<T>(
        _ name: String, parent: InstrumentationContext?, ofKind kind: SpanKind, isolation: isolated (any Actor)? = #isolation,
        _ body: ((any Span)?) async throws -> T
    ) async rethrows -> T {
        guard parent != nil || picked() else { return try await body(nil) }
        return try await withSpan(name, context: parent ?? .topLevel, ofKind: kind) { span in
            guard span.isRecording else { return try await body(span) }
            return try await $isRecording.withValue(true) { try await body(span) }
        }
    }

    private static func picked() -> Bool {
        let every = every.load(ordering: .relaxed)
        return every > 0 && counter.wrappingAdd(1, ordering: .relaxed).oldValue % every == 0
    }
}
