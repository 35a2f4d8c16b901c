import Foundation

/// Which group channel events are also told in the channel by an admin message (API.md §14.7,
/// Sendbird's `auto_event_message`), and the text of each: `{nicknames}` is the users the event is
/// about (the creator of a new channel), `{channel_name}` the channel's name.
public struct AutoEventMessages: Sendable, Equatable, Codable {
    public struct Setting: Sendable, Equatable, Codable {
        public var isEnabled = false
        public var message: String

        public init(message: String) {
            self.message = message
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? false
            message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        }

        enum CodingKeys: String, CodingKey {
            case message
            case isEnabled = "is_enabled"
        }
    }

    public enum Kind: Sendable {
        case userJoin, userLeave, channelCreate, channelChange
    }

    public var userJoin = Setting(message: "{nicknames} joined.")
    public var userLeave = Setting(message: "{nicknames} left.")
    public var channelCreate = Setting(message: "{channel_name} was created.")
    public var channelChange = Setting(message: "{channel_name} was changed.")

    public init() {}

    /// Stored settings over the defaults: a kind never set keeps its default (off).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AutoEventMessages()
        userJoin = try container.decodeIfPresent(Setting.self, forKey: .userJoin) ?? defaults.userJoin
        userLeave = try container.decodeIfPresent(Setting.self, forKey: .userLeave) ?? defaults.userLeave
        channelCreate = try container.decodeIfPresent(Setting.self, forKey: .channelCreate) ?? defaults.channelCreate
        channelChange = try container.decodeIfPresent(Setting.self, forKey: .channelChange) ?? defaults.channelChange
    }

    enum CodingKeys: String, CodingKey {
        case userJoin = "user_join"
        case userLeave = "user_leave"
        case channelCreate = "channel_create"
        case channelChange = "channel_change"
    }

    public subscript(kind: Kind) -> Setting {
        get {
            switch kind {
            case .userJoin: userJoin
            case .userLeave: userLeave
            case .channelCreate: channelCreate
            case .channelChange: channelChange
            }
        }
        set {
            switch kind {
            case .userJoin: userJoin = newValue
            case .userLeave: userLeave = newValue
            case .channelCreate: channelCreate = newValue
            case .channelChange: channelChange = newValue
            }
        }
    }

    /// The message for an event of `kind` about `users` in the channel named `channelName`; nil when off.
    public func text(_ kind: Kind, users: [BasicUser], channelName: String) -> String? {
        let setting = self[kind]
        guard setting.isEnabled, !setting.message.isEmpty else { return nil }
        let nicknames = users.map { $0.nickname.isEmpty ? $0.userID : $0.nickname }.joined(separator: ", ")
        return setting.message.replacingOccurrences(of: "{nicknames}", with: nicknames)
            .replacingOccurrences(of: "{channel_name}", with: channelName.isEmpty ? "The channel" : channelName)
    }
}
