import Foundation

extension ParleyClient {
    /// Device tokens for push notifications to the user when offline (API.md §12.1).
    public var push: PushAPI { PushAPI(client: self) }
}

/// A device token's kind.
public enum PushTokenType: String, Sendable {
    case apns
    case fcm = "gcm"
    case huawei

    var field: String {
        switch self {
        case .apns: "apns_device_token"
        case .fcm: "gcm_reg_token"
        case .huawei: "huawei_device_token"
        }
    }
}

public struct PushAPI: Sendable {
    let client: ParleyClient

    /// Registers this device's token (for APNs, the hex of the device token).
    public func register(_ token: String, type: PushTokenType) async throws {
        let rest = try client.rest()
        try await rest.call(
            "POST", "/v3/users/\(RESTClient.segment(rest.credentials.userId))/push/\(type.rawValue)", body: [type.field: token])
    }

    public func unregister(_ token: String, type: PushTokenType) async throws {
        let rest = try client.rest()
        let user = RESTClient.segment(rest.credentials.userId)
        try await rest.call("DELETE", "/v3/users/\(user)/push/\(type.rawValue)/\(RESTClient.segment(token))")
    }
}

/// The user's push settings (API.md §12.2). Read whole; to change some, set those and leave the
/// rest nil.
public struct PushPreference: Codable, Sendable, Equatable {
    /// `all`, `mention_only` or `off`.
    public var pushTriggerOption: String?
    /// A daily quiet window in `timezone` (IANA), which may cross midnight.
    public var doNotDisturb: Bool?
    public var startHour: Int?
    public var startMin: Int?
    public var endHour: Int?
    public var endMin: Int?
    public var timezone: String?
    /// A one-off quiet span (ms).
    public var snoozeEnabled: Bool?
    public var snoozeStartTs: Int64?
    public var snoozeEndTs: Int64?
    public var pushSound: String?
    public var alternativePushSound: String?
    public var enablePushForReplies: Bool?
    /// `default` or `alternative`: which template the user's pushes are written with.
    public var pushTemplate: String?

    public init(pushTriggerOption: String? = nil) {
        self.pushTriggerOption = pushTriggerOption
    }
}

/// One channel's push setting for the user.
public struct ChannelPushPreference: Codable, Sendable, Equatable {
    /// `default` (the user's), `all`, `mention_only` or `off`.
    public var pushTriggerOption: String
    public var pushSound: String?

    public init(pushTriggerOption: String, pushSound: String? = nil) {
        self.pushTriggerOption = pushTriggerOption
        self.pushSound = pushSound
    }
}

// MARK: Preferences and tokens (§12.1–12.2)
extension PushAPI {
    private func me() throws -> (RESTClient, String) {
        let rest = try client.rest()
        return (rest, "/v3/users/\(RESTClient.segment(rest.credentials.userId))")
    }

    public func preference() async throws -> PushPreference {
        let (rest, path) = try me()
        return try await rest.call("GET", path + "/push_preference")
    }

    /// Changes the fields set in `change`; the whole preference after.
    public func updatePreference(_ change: PushPreference) async throws -> PushPreference {
        let (rest, path) = try me()
        return try await rest.call("PUT", path + "/push_preference", body: change)
    }

    /// Back to the defaults (every message, no quiet hours).
    public func resetPreference() async throws {
        let (rest, path) = try me()
        try await rest.call("DELETE", path + "/push_preference")
    }

    public func channelPreference(_ channelURL: String) async throws -> ChannelPushPreference {
        let (rest, path) = try me()
        return try await rest.call("GET", path + "/push_preference/\(RESTClient.segment(channelURL))")
    }

    public func updateChannelPreference(_ channelURL: String, _ preference: ChannelPushPreference) async throws -> ChannelPushPreference {
        let (rest, path) = try me()
        return try await rest.call("PUT", path + "/push_preference/\(RESTClient.segment(channelURL))", body: preference)
    }

    /// Picks the template the user's pushes are written with: `default` or `alternative`.
    public func setTemplate(_ name: String) async throws {
        let (rest, path) = try me()
        try await rest.call("PUT", path + "/push/template", body: ["name": name])
    }

    /// The user's tokens of a kind.
    public func tokens(_ type: PushTokenType, limit: Int = 20, token: String? = nil) async throws -> Page<String> {
        let (rest, path) = try me()
        struct Body: Decodable {
            let tokens: [String]
            let next: String?
        }
        let body = try await rest.call("GET", path + "/push/\(type.rawValue)", query: GroupChannelAPI.page(limit, token), as: Body.self)
        return Page(items: body.tokens, next: body.next ?? "")
    }

    /// Removes every token of the user (signing out of all devices' pushes).
    public func unregisterAll() async throws {
        let (rest, path) = try me()
        try await rest.call("DELETE", path + "/push")
    }
}
