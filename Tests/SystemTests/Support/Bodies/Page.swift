/// `{ "<items>": [...], "next": "…" }`: a page of a list (API.md §1.6), under the name the API
/// gives what it lists.
struct Page<Item: Listed>: Decodable {
    let items: [Item]
    /// The token of the next page; empty on the last.
    let next: String

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        items = try container.decode([Item].self, forKey: Key(stringValue: Item.listKey))
        next = try container.decode(String.self, forKey: Key(stringValue: "next"))
    }
}

/// A resource that comes in pages, and the name of its list.
protocol Listed: Decodable {
    static var listKey: String { get }
}

extension UserBody: Listed { static var listKey: String { "users" } }
extension ChannelBody: Listed { static var listKey: String { "channels" } }
extension MemberBody: Listed { static var listKey: String { "members" } }
/// A channel's operators are listed in their basic form.
extension BasicUserBody: Listed { static var listKey: String { "operators" } }
extension ReactionBody: Listed { static var listKey: String { "reactions" } }

typealias UserList = Page<UserBody>
typealias ChannelList = Page<ChannelBody>
typealias MemberList = Page<MemberBody>
typealias OperatorList = Page<BasicUserBody>
typealias ReactionList = Page<ReactionBody>
