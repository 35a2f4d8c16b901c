import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `{ "<key>": [items], "next": "…" }`: every paginated list (a whole list, `next` nil, has none).
struct ListDTO<Item: JSONWritable>: JSONWritable {
    let key: String
    let items: [Item]
    var next: String? = nil

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key(key)
            json.array { json in items.forEach { json.value($0) } }
            if let next { json.field("next", next) }
        }
    }
}
