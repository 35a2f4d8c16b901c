import ByteCoding
import ParleyCore

/// Every list and window an answer holds stops at a byte budget (issue 50.2): its items are
/// measured as they are written, with everything they carry (polls, mentions, parents, thread
/// info, reactions, previews, members, metadata), and the answer stops before the item that
/// would take it past the budget; the first item always comes. A page's token then continues
/// right after the last item written (`Page.resume`), so a client that pages on misses nothing;
/// a history window keeps the messages nearest its anchor, and the client pages on from the last
/// one it got, as it always does.
///
/// One answer's items may take `Limits.responseBytes` (`PARLEY_MAX_RESPONSE_BYTES`), set for
/// each request by `ConventionsMiddleware`; so clients that ask for the largest answers and never
/// read them hold at most that much each in the server.
public enum ResponseBudget {
    /// The budget of the answer being written.
    @TaskLocal public static var bytes = 2 << 20

    /// Writes `items` as an array, each by `write`, stopping before the first item that would
    /// take the answer (everything written so far) past the budget; returns how many it wrote.
    /// With `cuttable` false (a list with no way to continue after any item) all are written.
    public static func writeArray<Item>(
        _ items: [Item], to json: inout JSONWriter, cuttable: Bool = true, _ write: (Item, inout JSONWriter) -> Void
    ) -> Int {
        var written = 0
        let budget = cuttable ? bytes : .max
        json.array { json in
            for item in items {
                let mark = json.mark
                write(item, &json)
                if written > 0 && json.count > budget {
                    json.rollBack(to: mark)
                    break
                }
                written += 1
            }
        }
        return written
    }

    /// Writes a page's items as an array within the budget; returns the page token the answer
    /// carries: the page's own when every item was written, else the one continuing after the
    /// last that was.
    public static func writePage<Item>(_ page: Page<Item>, to json: inout JSONWriter, _ write: (Item, inout JSONWriter) -> Void)
        -> String
    {
        writePage(page.items, next: page.next, resume: page.resume, to: &json, write)
    }

    /// The same for a page's items shown otherwise (`items[i]` shows the page's i-th).
    public static func writePage<Item>(
        _ items: [Item], next: String, resume: ((Int) -> String)?, to json: inout JSONWriter, _ write: (Item, inout JSONWriter) -> Void
    ) -> String {
        let written = writeArray(items, to: &json, cuttable: resume != nil, write)
        guard written < items.count, let resume else { return next }
        return resume(written - 1)
    }

    /// Writes a window's messages as an array within the budget, nearest the anchor first
    /// (`range(sizes:anchor:budget:)`); each is written once, measured, and copied.
    public static func writeWindow<Item>(_ items: [Item], anchor: Int, to json: inout JSONWriter, _ write: (Item, inout JSONWriter) -> Void)
    {
        let written = items.map { item in
            var one = JSONWriter(capacity: 1024)
            write(item, &one)
            return one
        }
        let kept = range(sizes: written.map(\.count), anchor: anchor, budget: bytes - json.count)
        json.array { json in
            for index in kept { json.value(written: written[index]) }
        }
    }

    /// The items of a window to keep within `budget` bytes: outward from the anchor (the items
    /// before index `anchor` are on one side of it, the others on the other), nearest first, a
    /// side at a time in turn while both have items left; the item nearest the anchor always
    /// comes (that after it, or else that before it). A separator's byte counts for each.
    public static func range(sizes: [Int], anchor: Int, budget: Int) -> Range<Int> {
        guard !sizes.isEmpty else { return 0..<0 }
        let anchor = min(max(anchor, 0), sizes.count)
        var (low, high) = (anchor, anchor)
        var used = 0
        var takeLater = true
        while low > 0 || high < sizes.count {
            let later = high < sizes.count && (takeLater || low == 0)
            let size = (later ? sizes[high] : sizes[low - 1]) + 1
            guard used + size <= budget || (low == high) else { break }
            used += size
            if later { high += 1 } else { low -= 1 }
            takeLater.toggle()
        }
        return low..<high
    }
}
