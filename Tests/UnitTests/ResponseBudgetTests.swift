import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import Testing

/// Issue 50.2: what an answer keeps within its byte budget.
@Suite struct ResponseBudgetRuleTests {
    @Test func aWindowKeepsTheItemsNearestItsAnchorTakingBothSidesInTurn() {
        // Ten items of 9 bytes (10 with the separator); the anchor between items 4 and 5.
        let sizes = Array(repeating: 9, count: 10)
        #expect(ResponseBudget.range(sizes: sizes, anchor: 5, budget: 40) == 3..<7)
        #expect(ResponseBudget.range(sizes: sizes, anchor: 5, budget: 39) == 4..<7, "5, 4, 6: the later side first")
        #expect(ResponseBudget.range(sizes: sizes, anchor: 5, budget: 1_000) == 0..<10)
        // A side that runs out leaves the rest to the other.
        #expect(ResponseBudget.range(sizes: sizes, anchor: 1, budget: 50) == 0..<5)
        #expect(ResponseBudget.range(sizes: sizes, anchor: 10, budget: 30) == 7..<10)
        #expect(ResponseBudget.range(sizes: sizes, anchor: 0, budget: 30) == 0..<3)
        // The item nearest the anchor always comes, whatever its size; nothing past the first that does not fit.
        #expect(ResponseBudget.range(sizes: [5, 500, 5], anchor: 1, budget: 10) == 1..<2)
        #expect(ResponseBudget.range(sizes: [5, 500, 5], anchor: 3, budget: 10) == 2..<3)
        #expect(ResponseBudget.range(sizes: [], anchor: 0, budget: 10) == 0..<0)
    }

    @Test func aPageStopsBeforeTheItemPastTheBudgetAndGoesOnRightAfterTheLastWritten() {
        let page = Page(items: Array(0..<10), next: "end", resume: { "after-\($0)" })
        var json = JSONWriter()
        let next = ResponseBudget.$bytes.withValue(40) {
            ResponseBudget.writePage(page, to: &json) { item, json in json.string(String(repeating: "x", count: 8) + "\(item)") }
        }
        // Each item is 11 bytes and a separator: "[" and three items make 36, a fourth would pass 40.
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"["xxxxxxxx0","xxxxxxxx1","xxxxxxxx2"]"#)
        #expect(next == "after-2")
        // A page that fits keeps its own token; one with no way to go on is never cut.
        var whole = JSONWriter()
        #expect(ResponseBudget.$bytes.withValue(1_000) { ResponseBudget.writePage(page, to: &whole) { $1.int(Int64($0)) } } == "end")
        var uncut = JSONWriter()
        let unresumable = Page(items: Array(0..<10), next: "")
        #expect(ResponseBudget.$bytes.withValue(4) { ResponseBudget.writePage(unresumable, to: &uncut) { $1.int(Int64($0)) } } == "")
        #expect(String(decoding: uncut.bytes, as: UTF8.self) == "[0,1,2,3,4,5,6,7,8,9]")
        // The first item always comes.
        var one = JSONWriter()
        _ = ResponseBudget.$bytes.withValue(1) { ResponseBudget.writePage(page, to: &one) { $1.int(Int64($0)) } }
        #expect(String(decoding: one.bytes, as: UTF8.self) == "[0]")
    }
}
