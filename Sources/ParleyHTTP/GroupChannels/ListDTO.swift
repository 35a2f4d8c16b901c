import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `{ "<key>": [items], "next": "…" }`: every paginated list.
struct ListDTO<Item: JSONWritable>: JSONWritable {
    let key: String
    let items: [Item]
    let next: String

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key(key)
            json.array { json in items.forEach { json.value($0) } }
            json.field("next", next)
        }
    }
}
