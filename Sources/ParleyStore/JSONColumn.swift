import Foundation

/// Values kept in `jsonb` columns (a message's meta array and file), written and read as text.
enum JSONColumn {
    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ text: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
