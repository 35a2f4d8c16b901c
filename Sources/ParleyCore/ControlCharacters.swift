/// What control characters in text mean (issue 29.1): nothing a chat shows or an app stores needs
/// C0 controls other than tab, line feed and carriage return, and each is written as a six-byte
/// `\u00XX` in JSON, so that one stored byte cost six in every response that carries it (a history
/// window of them ran to 169 MB). PostgreSQL text cannot hold U+0000 at all. So text fields
/// refuse them; what remains grows at most twofold when written (`"` and `\`).
extension String {
    /// Whether the text holds a C0 control character other than tab, line feed or carriage return.
    public var hasRefusedControlCharacters: Bool {
        utf8.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    /// 400/400111 for text with a refused control character.
    public func requireNoControlCharacters(field: String) throws {
        if hasRefusedControlCharacters {
            throw ParleyError.invalidValue(field, "must not contain control characters other than tab, line feed and carriage return")
        }
    }
}
