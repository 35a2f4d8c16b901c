import Foundation

/// The server's JSON keys are snake case (`channel_url`); ParleyKit's properties are camel case
/// with the platform's acronyms (`channelURL`, `userId`, `profileURL`).
enum JSONCoding {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in CamelKey(camel(path.last!.stringValue)) }
        return decoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom { path in CamelKey(snake(path.last!.stringValue)) }
        return encoder
    }()

    /// `channel_url` → `channelURL`, `user_id` → `userId`.
    static func camel(_ key: String) -> String {
        let parts = key.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return key }
        return String(parts[0]) + parts.dropFirst().map { $0 == "url" ? "URL" : $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `channelURL` → `channel_url`, `userId` → `user_id`.
    static func snake(_ key: String) -> String {
        var result = ""
        var index = key.startIndex
        while index < key.endIndex {
            if key[index...].hasPrefix("URL") {
                result += "_url"
                index = key.index(index, offsetBy: 3)
                continue
            }
            let character = key[index]
            result += character.isUppercase ? "_" + character.lowercased() : String(character)
            index = key.index(after: index)
        }
        return result
    }

    struct CamelKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
