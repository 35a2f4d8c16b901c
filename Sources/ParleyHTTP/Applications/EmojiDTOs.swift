import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/emoji_categories`: `{ emoji_categories: [{ name, url }] }`.
struct CategoriesBody: Decodable {
    struct Entry: Decodable {
        @Checked var name: String
        @Checked var url: String
    }

    var categories: [Entry]?

    enum CodingKeys: String, CodingKey {
        case categories = "emoji_categories"
    }
}

/// `POST /v3/emojis`: `{ emoji_category_id, emojis: [{ key, url }] }`.
struct EmojisBody: Decodable {
    struct Entry: Decodable {
        @Checked var key: String
        @Checked var url: String
    }

    @Checked var categoryID: Int64?
    var emojis: [Entry]?

    enum CodingKeys: String, CodingKey {
        case categoryID = "emoji_category_id"
        case emojis
    }
}

struct URLBody: Decodable {
    @Checked var url: String?
}

/// `{ enabled }` or `{ use_default_emoji }`.
struct FlagBody: Decodable {
    @Checked var enabled: Bool?
    @Checked var useDefaultEmoji: Bool?

    enum CodingKeys: String, CodingKey {
        case enabled
        case useDefaultEmoji = "use_default_emoji"
    }
}

struct EmojiDTO: JSONWritable {
    let emoji: Emoji

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", emoji.id)
            json.field("key", emoji.key)
            json.field("url", emoji.url)
        }
    }
}

struct CategoryDTO: JSONWritable {
    let category: EmojiCategory

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", category.id)
            json.field("name", category.name)
            json.field("url", category.url)
            json.key("emojis")
            json.array { json in category.emojis.forEach { EmojiDTO(emoji: $0).write(to: &json) } }
        }
    }
}

/// `{ emoji_hash, emoji_categories }`: the hash (64-bit FNV-1a of the set's JSON, the same on
/// every instance) changes whenever the set does, so a client can tell whether its copy is current.
struct EmojiSetDTO: JSONWritable {
    let categories: [EmojiCategory]

    func write(to json: inout JSONWriter) {
        var categoryJSON = JSONWriter(capacity: 1024)
        categoryJSON.array { json in categories.forEach { CategoryDTO(category: $0).write(to: &json) } }
        let hash = categoryJSON.bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        json.object { json in
            json.field("emoji_hash", String(hash, radix: 16))
            json.key("emoji_categories")
            json.array { json in categories.forEach { CategoryDTO(category: $0).write(to: &json) } }
        }
    }
}
