/// One field of a group channel an update changed, as Sendbird's `group_channel:changed` webhook
/// lists them (`changes`: key, old value, new value).
public struct ChannelFieldChange: Sendable, Equatable, Codable {
    public enum Value: Sendable, Equatable, Codable {
        case string(String)
        case bool(Bool)
    }

    public let key: String
    public let old: Value
    public let new: Value

    public init(key: String, old: Value, new: Value) {
        self.key = key
        self.old = old
        self.new = new
    }

    /// The fields an update may change that differ between `old` and `new`.
    public static func between(_ old: GroupChannel, _ new: GroupChannel) -> [ChannelFieldChange] {
        let strings: [(String, KeyPath<GroupChannel, String>)] = [
            ("name", \.name), ("cover_url", \.coverURL), ("custom_type", \.customType), ("data", \.data)
        ]
        let bools: [(String, KeyPath<GroupChannel, Bool>)] = [
            ("is_distinct", \.isDistinct), ("is_public", \.isPublic), ("is_access_code_required", \.isAccessCodeRequired)
        ]
        return strings.compactMap { key, path in
            old[keyPath: path] == new[keyPath: path]
                ? nil : ChannelFieldChange(key: key, old: .string(old[keyPath: path]), new: .string(new[keyPath: path]))
        }
            + bools.compactMap { key, path in
                old[keyPath: path] == new[keyPath: path]
                    ? nil : ChannelFieldChange(key: key, old: .bool(old[keyPath: path]), new: .bool(new[keyPath: path]))
            }
    }
}
