import Testing
import Traced

/// Which root operations get a span (`Traced`): every one in a caller's trace, and of the others
/// one in `1 / ratio`; none at ratio 0. (No tracer here: the spans are no-ops, never recording.)
@Suite(.serialized) struct TracedTests {
    static func spans(_ count: Int, parent: InstrumentationContext? = nil) async -> Int {
        var made = 0
        for _ in 0..<count { made += await Traced.root("op", parent: parent, ofKind: .internal) { $0 == nil ? 0 : 1 } }
        return made
    }

    @Test func oneInEveryOperationsStartsATraceAndCallersAreAlwaysFollowed() async {
        Traced.startTraces(ratio: 0.25)
        #expect(await Self.spans(40) == 10)
        #expect(await Self.spans(5, parent: .topLevel) == 5)
        Traced.startTraces(ratio: 0)
        #expect(await Self.spans(40) == 0)
        #expect(await Self.spans(3, parent: .topLevel) == 3)
        Traced.startTraces(ratio: 1)
        #expect(await Self.spans(7) == 7)
        // Outside a recorded root no child span is made.
        #expect(await Traced.span("child") { $0 == nil })
    }
}
