import ByteCoding

/// The push services a device token belongs to (API.md §12.1), by Sendbird's path names.
public enum PushTokenType: String, Sendable, CaseIterable {
    /// Firebase Cloud Messaging (Sendbird keeps Google's old name).
    case gcm
    case apns
    /// Huawei Push Kit.
    case huawei
    /// Web Push (RFC 8030): the token is the subscription's endpoint.
    case web

    /// The body field a registration of this type carries.
    public var bodyField: String {
        switch self {
        case .gcm: "gcm_reg_token"
        case .apns: "apns_device_token"
        case .huawei: "huawei_device_token"
        case .web: "web_push_subscription"
        }
    }
}

/// A browser's Web Push subscription (`PushSubscription.toJSON()`): where to post, and the keys
/// the payload is encrypted to (RFC 8291).
public struct WebPushKeys: Sendable, Equatable {
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url.
    public let p256dh: String
    /// The 16-byte authentication secret, base64url.
    public let auth: String

    public init(p256dh: String, auth: String) {
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// One registered device.
public struct PushToken: Sendable, Equatable {
    public let type: PushTokenType
    public let token: String
    public let webKeys: WebPushKeys?

    public init(type: PushTokenType, token: String, webKeys: WebPushKeys? = nil) {
        self.type = type
        self.token = token
        self.webKeys = webKeys
    }
}

/// What a device token may be: the form each service gives its apps, checked before it is
/// stored, so that nothing else is ever sent to a provider (or, for Web Push, fetched).
public enum PushTokens {
    /// Tokens a user keeps per type; registering one more drops the oldest (Sendbird's rule).
    public static let maxPerType = 20

    /// The type named in a path.
    public static func type(_ name: String) throws -> PushTokenType {
        guard let type = PushTokenType(rawValue: name) else {
            throw ParleyError.invalidValue("token_type", "must be gcm, apns, huawei or web")
        }
        return type
    }

    /// A device token of `type` as an app registers it: APNs tokens are hex (32 bytes today,
    /// up to 100 allowed), FCM and HMS tokens printable ASCII without spaces, at most 4,096.
    public static func token(_ value: String, type: PushTokenType) throws -> String {
        let field = type.bodyField
        guard !value.isEmpty else { throw ParleyError.missing(field) }
        switch type {
        case .apns:
            guard value.utf8.count.isMultiple(of: 2), (16...200).contains(value.utf8.count),
                value.utf8.allSatisfy({ Hex.value($0) != nil })
            else { throw ParleyError.invalidValue(field, "an APNs device token is 16 to 200 hex digits") }
            return value.lowercased()
        case .gcm, .huawei:
            guard value.utf8.count <= 4096, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ParleyError.invalidValue(field, "a device token is up to 4,096 printable characters without spaces")
            }
            return value
        case .web:
            return try endpoint(value)
        }
    }

    /// A Web Push endpoint: an absolute https URL of at most 2,048 bytes. Where it may lead is
    /// the outbound guard's to decide, at every delivery (API.md §11.2).
    public static func endpoint(_ value: String) throws -> String {
        let field = "web_push_subscription.endpoint"
        guard value.utf8.count <= 2048, value.lowercased().hasPrefix("https://"), value.utf8.count > 8,
            value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { throw ParleyError.invalidValue(field, "an https URL of at most 2,048 characters") }
        return value
    }

    /// The subscription's keys: a 65-byte uncompressed P-256 point and a 16-byte secret, base64url.
    public static func webKeys(p256dh: String, auth: String) throws -> WebPushKeys {
        guard let point = Base64URL.decode(Substring(p256dh)), point.count == 65, point.first == 0x04 else {
            throw ParleyError.invalidValue("web_push_subscription.keys.p256dh", "an uncompressed P-256 public key, base64url")
        }
        guard let secret = Base64URL.decode(Substring(auth)), secret.count == 16 else {
            throw ParleyError.invalidValue("web_push_subscription.keys.auth", "16 bytes, base64url")
        }
        return WebPushKeys(p256dh: p256dh, auth: auth)
    }
}
