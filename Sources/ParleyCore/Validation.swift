/// The identifier and field rules of API.md §1.4 and §2.
public enum Validation {
    public static let maxUserIDLength = 80
    public static let maxNicknameLength = 80
    public static let maxProfileURLLength = 2048
    public static let maxMetadataKeys = 100
    public static let maxMetadataKeyLength = 128
    public static let maxMetadataValueLength = 190

    /// 1–80 characters from letters, digits and `_ - . @ : +`.
    public static func userID(_ value: String, field: String = "user_id") throws -> String {
        guard !value.isEmpty else { throw ParleyError.invalidValue(field, "must not be empty") }
        guard value.count <= maxUserIDLength else { throw ParleyError.tooLong(field, max: maxUserIDLength) }
        guard value.unicodeScalars.allSatisfy(isUserIDCharacter) else {
            throw ParleyError.invalidValue(field, "only letters, digits and _ - . @ : + are allowed")
        }
        return value
    }

    /// A text field of at most `max` characters.
    public static func text(_ value: String, field: String, max: Int) throws -> String {
        guard value.count <= max else { throw ParleyError.tooLong(field, max: max) }
        return value
    }

    /// A metadata map: at most 100 keys in all, non-empty keys of ≤ 128 and values of ≤ 190 characters.
    public static func metadata(_ map: [String: String], field: String = "metadata") throws -> [String: String] {
        guard map.count <= maxMetadataKeys else {
            throw ParleyError.tooMany("\"\(field)\" may hold at most \(maxMetadataKeys) keys.")
        }
        for (key, value) in map {
            try metadataKey(key, field: field)
            guard value.count <= maxMetadataValueLength else { throw ParleyError.tooLong("\(field).\(key)", max: maxMetadataValueLength) }
        }
        return map
    }

    public static func metadataKey(_ key: String, field: String = "key") throws {
        guard !key.isEmpty else { throw ParleyError.invalidValue(field, "keys must not be empty") }
        guard key.count <= maxMetadataKeyLength else { throw ParleyError.tooLong(field, max: maxMetadataKeyLength) }
    }

    private static func isUserIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "@", ":", "+": true
        default: false
        }
    }
}
