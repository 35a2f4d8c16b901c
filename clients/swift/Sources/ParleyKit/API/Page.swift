/// One page of a list; `next` is the token of the next page (empty on the last).
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    public let next: String

    public var hasMore: Bool { !next.isEmpty }
}

/// A list answer whose items are under `key` (`channels`, `members`, …), with `next`.
struct ListBody<Item: Decodable & Sendable>: Decodable {
    let items: [Item]
    let next: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONCoding.CamelKey.self)
        // The one array of items (beside counts like `total_mute_count`, in no fixed order).
        items = container.allKeys.lazy.compactMap { try? container.decode([Item].self, forKey: $0) }.first ?? []
        next = try container.decodeIfPresent(String.self, forKey: JSONCoding.CamelKey("next")) ?? ""
    }

    var page: Page<Item> { Page(items: items, next: next) }
}

/// Encodes as `{}`: the PUT and POST calls whose body only names the session user.
struct EmptyBody: Encodable, Sendable {}
