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
