import ByteCoding
import Crypto
import CurlHTTP
import Foundation
import ParleyCore
import Synchronization

/// Apple Push Notification service with token authentication (API.md §12.5): HTTP/2 over one
/// multiplexed connection (its own `CurlClient`, one connection per host), an ES256 provider
/// token renewed every 30 minutes (Apple refuses one older than an hour and throttles one
/// renewed more often than every 20).
final class APNsProvider: PushProvider {
    struct Settings: Sendable {
        var key: P256.Signing.PrivateKey
        var keyID: String
        var teamID: String
        var topic: String
        var url: String
    }

    let type = PushTokenType.apns
    private let settings: Settings
    private let client: CurlClient
    private let authorities: CertificateAuthorities?
    private let clock: ParleyCore.Clock
    private let providerToken = Mutex<(token: String, issuedAt: Int64)?>(nil)
    static let tokenLifetimeMillis: Int64 = 30 * 60 * 1000

    init(settings: Settings, client: CurlClient, authorities: CertificateAuthorities?, clock: ParleyCore.Clock) {
        self.settings = settings
        self.client = client
        self.authorities = authorities
        self.clock = clock
    }

    func send(_ push: DevicePush) async -> PushOutcome {
        let bearer: String
        do { bearer = try currentToken() } catch { return .failed(reason: "credentials") }
        var request = OutboundRequest(
            .post, settings.url + "/3/device/" + push.token.token,
            headers: [
                ("authorization", "bearer " + bearer),
                ("apns-topic", settings.topic),
                ("apns-push-type", "alert"),
                ("apns-priority", "10"),
                ("apns-expiration", String(push.expiresAt)),
                ("content-type", "application/json")
            ] + collapseID(push),
            body: push.notice.apnsPayload(), timeout: .seconds(10), maxResponseBytes: 16 * 1024)
        request.multiplexes = true
        request.trustedAuthorities = authorities
        do {
            let response = try await client.send(request)
            if response.status == 410 { return .deadToken }
            if response.status == 400, Self.reason(response) == "BadDeviceToken" { return .deadToken }
            if response.status == 403, Self.reason(response) == "ExpiredProviderToken" {
                providerToken.withLock { $0 = nil }
                return .retry(after: nil, reason: "credentials")
            }
            return .from(response)
        } catch {
            return .from(error)
        }
    }

    /// Newer pushes of one channel replace older ones on the lock screen; Apple takes at most
    /// 64 bytes, so a longer channel URL goes without.
    private func collapseID(_ push: DevicePush) -> [(name: String, value: String)] {
        push.notice.channel.url.utf8.count <= 64 ? [("apns-collapse-id", push.notice.channel.url)] : []
    }

    private static func reason(_ response: OutboundResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["reason"] as? String
    }

    /// The provider token, signed anew when the one in use is 30 minutes old.
    private func currentToken() throws -> String {
        let now = clock.nowMillis
        return try providerToken.withLock { cached in
            if let cached, now - cached.issuedAt < Self.tokenLifetimeMillis { return cached.token }
            let token = try JSONWebToken.es256(
                header: ["kid": settings.keyID], claims: ["iss": settings.teamID, "iat": now / 1000], key: settings.key)
            cached = (token, now)
            return token
        }
    }
}
