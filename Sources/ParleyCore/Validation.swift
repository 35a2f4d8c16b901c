/// The identifier and field rules of API.md §1.4 and §2.
public enum Validation {
    public static let maxUserIDLength = 80
    public static let maxNicknameLength = 80
    public static let maxProfileURLLength = 2048
    public static let maxMetadataKeys = 100
    public static let maxMetadataKeyLength = 128
    public static let maxMetadataValueLength = 190

    /// 1–80 characters from letters, digits and `_ - . @ : +`; not `.` or `..`, which clients
    /// normalise out of a path (`/v3/users/..` would reach `/v3`).
    public static func userID(_ value: String, field: String = "user_id") throws -> String {
        try identifier(value, field: field, max: maxUserIDLength, allowed: "_-.@:+")
    }

    /// An identifier of ASCII letters, digits and the `allowed` punctuation, 1…`max` long, that
    /// is not a dot segment.
    static func identifier(_ value: String, field: String, max: Int, allowed: String) throws -> String {
        guard !value.isEmpty else { throw ParleyError.invalidValue(field, "must not be empty") }
        guard value.utf8.count <= max else { throw ParleyError.tooLong(field, max: max) }
        guard
            value.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: allowed.utf8.contains(byte)
                }
            })
        else {
            throw ParleyError.invalidValue(field, "only letters, digits and \(allowed.map(String.init).joined(separator: " ")) are allowed")
        }
        guard value != "." && value != ".." else { throw ParleyError.invalidValue(field, "must not be \"\(value)\"") }
        return value
    }

    /// A text field of at most `max` characters, counted as Unicode scalars, and at most
    /// `maxBytes` bytes of UTF-8 (by default the 4 bytes a scalar can take).
    ///
    /// Not `String.count`: that counts grapheme clusters, and one cluster can hold thousands of
    /// combining marks, so a one-"character" value could carry kilobytes into storage and past
    /// PostgreSQL's ~2,700-byte limit on an index entry. Counted in scalars, every indexed text
    /// field stays far below it (the widest entry, channel metadata's key, value and url, is at
    /// most 1,372 bytes).
    public static func text(_ value: String, field: String, max: Int, maxBytes: Int? = nil) throws -> String {
        guard value.unicodeScalars.count <= max, value.utf8.count <= (maxBytes ?? max * 4) else {
            throw ParleyError.tooLong(field, max: max)
        }
        // Also for text from a path or a query (a metadata `{key}`), which `Checked` never sees.
        try value.requireNoControlCharacters(field: field)
        return value
    }

    /// A metadata map: at most 100 keys in all, non-empty keys of ≤ 128 and values of ≤ 190 characters.
    public static func metadata(_ map: [String: String], field: String = "metadata") throws -> [String: String] {
        guard map.count <= maxMetadataKeys else {
            throw ParleyError.tooMany("\"\(field)\" may hold at most \(maxMetadataKeys) keys.")
        }
        for (key, value) in map {
            try metadataKey(key, field: field)
            _ = try text(value, field: "\(field).\(key)", max: maxMetadataValueLength)
        }
        return map
    }

    public static func metadataKey(_ key: String, field: String = "key") throws {
        guard !key.isEmpty else { throw ParleyError.invalidValue(field, "keys must not be empty") }
        _ = try text(key, field: field, max: maxMetadataKeyLength)
    }

    /// A file name as stored and shown: Unicode bidi controls (U+202A–U+202E, U+2066–U+2069 and
    /// the marks) are removed, so that `invoice\u{202E}gnp.exe` cannot pose as `invoiceexe.png`,
    /// and so are control characters, which have no place in a name.
    public static func fileName(_ value: String, field: String = "file_name") throws -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(
            contentsOf: value.unicodeScalars.filter { scalar in
                !scalar.properties.isBidiControl && scalar.properties.generalCategory != .control
            })
        return try text(String(scalars), field: field, max: maxFileNameLength)
    }
}
