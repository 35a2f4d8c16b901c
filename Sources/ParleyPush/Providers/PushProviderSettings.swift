import Crypto
import CurlHTTP
import Foundation
import OutboundPolicy
import ParleyCore

/// The providers as configured (API.md §12.5): from the environment, never from the API. A
/// provider without its settings is off; tokens of its type are kept but get no pushes.
public struct PushProviderSettings: Sendable {
    /// `PARLEY_APNS_KEY_FILE`, `_KEY_ID`, `_TEAM_ID`, `_TOPIC`, `_URL`.
    public var apnsKeyFile: String?
    public var apnsKeyID = ""
    public var apnsTeamID = ""
    public var apnsTopic = ""
    public var apnsURL = "https://api.push.apple.com"
    /// `PARLEY_FCM_CREDENTIALS_FILE`, `PARLEY_FCM_URL`.
    public var fcmCredentialsFile: String?
    public var fcmURL = "https://fcm.googleapis.com"
    /// `PARLEY_HMS_APP_ID`, `_APP_SECRET`, `_TOKEN_URL`, `_URL`.
    public var hmsAppID: String?
    public var hmsAppSecret = ""
    public var hmsTokenURL = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"
    public var hmsURL = "https://push-api.cloud.huawei.com"
    /// `PARLEY_VAPID_PRIVATE_KEY_FILE`, `PARLEY_VAPID_SUBJECT`.
    public var vapidKeyFile: String?
    public var vapidSubject = ""
    /// `PARLEY_PUSH_CA_FILE`: certificate authorities trusted besides the system's.
    public var caFile: String?
    /// `PARLEY_WEBPUSH_SERVICES`: where browsers' subscription endpoints may be (issue 50.3).
    public var webPushServices = WebPushServices.browsers

    public init() {}

    /// Reads the key files and checks the settings; a misconfigured provider stops the server
    /// at start with what is wrong, rather than failing every push later.
    public func providers(outbound: OutboundGuard, clock: ParleyCore.Clock) throws -> PushProviders {
        let authorities = try caFile.map { file in
            _ = try Self.read(file, "PARLEY_PUSH_CA_FILE")
            return CertificateAuthorities(file: file)
        }
        // Clients (a thread each) only for configured providers. APNs has its own: one
        // connection per instance carries every push.
        let apnsClient = apnsKeyFile.map { _ in CurlClient(userAgent: "Parley", maxConnectionsPerHost: 1) }
        let needsClient = fcmCredentialsFile != nil || hmsAppID != nil || vapidKeyFile != nil
        let client = needsClient ? CurlClient(userAgent: "Parley", maxConnectionsPerHost: 8, maxCachedConnections: 256) : nil
        var list: [any PushProvider] = []
        var webPush: WebPushProvider?
        var fcmProjectID: String?
        if let apnsKeyFile {
            guard !apnsKeyID.isEmpty, !apnsTeamID.isEmpty, !apnsTopic.isEmpty else {
                throw PushConfigurationError("APNs needs PARLEY_APNS_KEY_ID, PARLEY_APNS_TEAM_ID and PARLEY_APNS_TOPIC with its key file")
            }
            let key = try Self.ecKey(try Self.read(apnsKeyFile, "PARLEY_APNS_KEY_FILE"), "PARLEY_APNS_KEY_FILE")
            let settings = APNsProvider.Settings(
                key: key, keyID: apnsKeyID, teamID: apnsTeamID, topic: apnsTopic, url: Self.trimmed(apnsURL))
            list.append(APNsProvider(settings: settings, client: apnsClient!, authorities: authorities, clock: clock))
        }
        if let fcmCredentialsFile {
            let json = try Self.read(fcmCredentialsFile, "PARLEY_FCM_CREDENTIALS_FILE")
            let credentials = try FCMProvider.Credentials(json: Data(json.utf8))
            fcmProjectID = credentials.projectID
            list.append(
                FCMProvider(credentials: credentials, url: Self.trimmed(fcmURL), client: client!, authorities: authorities, clock: clock))
        }
        if let hmsAppID {
            guard !hmsAppSecret.isEmpty else { throw PushConfigurationError("HMS needs PARLEY_HMS_APP_SECRET with PARLEY_HMS_APP_ID") }
            let settings = HMSProvider.Settings(
                appID: hmsAppID, appSecret: hmsAppSecret, tokenURL: hmsTokenURL, url: Self.trimmed(hmsURL))
            list.append(HMSProvider(settings: settings, client: client!, authorities: authorities, clock: clock))
        }
        if let vapidKeyFile {
            guard vapidSubject.hasPrefix("mailto:") || vapidSubject.hasPrefix("https:") else {
                throw PushConfigurationError("PARLEY_VAPID_SUBJECT must be a mailto: or https: URL")
            }
            let key = try Self.ecKey(try Self.read(vapidKeyFile, "PARLEY_VAPID_PRIVATE_KEY_FILE"), "PARLEY_VAPID_PRIVATE_KEY_FILE")
            let provider = WebPushProvider(
                settings: WebPushProvider.Settings(key: key, subject: vapidSubject, services: webPushServices), client: client!,
                outbound: outbound,
                authorities: authorities, clock: clock)
            webPush = provider
            list.append(provider)
        }
        return PushProviders(
            byType: Dictionary(uniqueKeysWithValues: list.map { ($0.type, $0) }), clients: [apnsClient, client].compactMap { $0 },
            vapidPublicKey: webPush?.publicKey, configurations: configurations(fcmProjectID: fcmProjectID))
    }

    /// What `GET /v3/applications/push/{push_type}` shows: no secret.
    private func configurations(fcmProjectID: String?) -> [PushConfiguration] {
        var list: [PushConfiguration] = []
        if apnsKeyFile != nil {
            list.append(
                PushConfiguration(
                    type: .apns, id: apnsKeyID,
                    details: [
                        "apns_name": apnsTopic, "apns_env_type": apnsURL.contains("sandbox") ? "development" : "production",
                        "team_id": apnsTeamID
                    ]))
        }
        if let fcmProjectID { list.append(PushConfiguration(type: .gcm, id: fcmProjectID, details: ["sender_id": fcmProjectID])) }
        if let hmsAppID { list.append(PushConfiguration(type: .huawei, id: hmsAppID, details: ["huawei_app_id": hmsAppID])) }
        if vapidKeyFile != nil { list.append(PushConfiguration(type: .web, id: "vapid", details: ["vapid_subject": vapidSubject])) }
        return list
    }

    private static func read(_ path: String, _ name: String) throws -> String {
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw PushConfigurationError("\(name): cannot read \(path)")
        }
    }

    private static func ecKey(_ pem: String, _ name: String) throws -> P256.Signing.PrivateKey {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) { return key }
        throw PushConfigurationError("\(name): not a P-256 private key in PEM")
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}

/// One configured provider as the API lists it.
public struct PushConfiguration: Sendable {
    public let type: PushTokenType
    public let id: String
    public let details: [String: String]
}

/// The providers this instance sends through, by token type.
public final class PushProviders: Sendable {
    let byType: [PushTokenType: any PushProvider]
    let clients: [CurlClient]
    /// Browsers subscribe with it; nil when Web Push is off.
    public let vapidPublicKey: String?
    public let configurations: [PushConfiguration]

    init(byType: [PushTokenType: any PushProvider], clients: [CurlClient], vapidPublicKey: String?, configurations: [PushConfiguration]) {
        self.byType = byType
        self.clients = clients
        self.vapidPublicKey = vapidPublicKey
        self.configurations = configurations
    }

    public var isEmpty: Bool { byType.isEmpty }

    func shutdown() {
        for client in clients { client.shutdown() }
    }
}

public struct PushConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension PushProviders {
    /// `GET /v3/applications/push/{push_type}` (the admin): the providers of that type.
    public func configurations(_ caller: Caller, type name: String) throws -> [PushConfiguration] {
        try caller.requireAdmin()
        let type = try PushTokens.type(name)
        return configurations.filter { $0.type == type }
    }

    /// `GET /v3/push/web/vapid_public_key` (any caller): what browsers subscribe with.
    public func webPushKey() throws -> String {
        guard let vapidPublicKey else { throw ParleyError.notFound("Web Push is not configured on this server.") }
        return vapidPublicKey
    }
}
