import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `{ "<key>": [items], "next": "…" }`: every paginated list (a whole list, `next` nil, has none).
/// A page that can be continued after any of its items (`Page.resume`) stops at the answer's
/// byte budget (`ResponseBudget`), and `next` goes on from where it stopped.
struct ListDTO<Item: JSONWritable>: JSONWritable {
    let key: String
    let items: [Item]
    var next: String? = nil
    var resume: (@Sendable (Int) -> String)? = nil

    init(key: String, items: [Item], next: String? = nil) {
        self.key = key
        self.items = items
        self.next = next
    }

    /// A page of `source`'s items, each shown as `show` makes it.
    init<Source>(key: String, page source: Page<Source>, _ show: (Source) -> Item) {
        self.init(key: key, items: source.items.map(show), next: source.next)
        self.resume = source.resume
    }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key(key)
            let next = ResponseBudget.writePage(items, next: next ?? "", resume: resume, to: &json) { item, json in json.value(item) }
            if self.next != nil { json.field("next", next) }
        }
    }
}
