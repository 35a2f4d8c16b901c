import ByteCoding
import Crypto
import CurlHTTP
import Foundation
import OutboundPolicy
import ParleyCore
import Synchronization

/// Web Push (API.md §12.5): the payload encrypted for the browser (RFC 8291) and posted to the
/// subscription's endpoint with a VAPID token (RFC 8292). Endpoints are URLs that users chose:
/// each must be at a push service the operator lists (`WebPushServices`, checked again here since
/// the list may have changed since it was registered), passes the outbound guard and is
/// connected to at the address it checked.
final class WebPushProvider: PushProvider {
    struct Settings: Sendable {
        var key: P256.Signing.PrivateKey
        /// `mailto:` or `https:`: whom a push service contacts about this sender.
        var subject: String
        /// Where endpoints may be.
        var services: WebPushServices
    }

    let type = PushTokenType.web
    private let settings: Settings
    private let client: CurlClient
    private let outbound: OutboundGuard
    private let authorities: CertificateAuthorities?
    private let clock: ParleyCore.Clock
    /// VAPID tokens by push service origin, renewed hourly (each is valid for 12 hours).
    private let tokens = Mutex<[String: (token: String, issuedAt: Int64)]>([:])
    /// The key browsers subscribe with (`applicationServerKey`): uncompressed, base64url.
    let publicKey: String

    init(
        settings: Settings, client: CurlClient, outbound: OutboundGuard, authorities: CertificateAuthorities?, clock: ParleyCore.Clock
    ) {
        self.settings = settings
        self.client = client
        self.outbound = outbound
        self.authorities = authorities
        self.clock = clock
        publicKey = Base64URL.encode(Array(settings.key.publicKey.x963Representation))
    }

    func send(_ push: DevicePush) async -> PushOutcome {
        guard let keys = push.token.webKeys, let p256dh = Base64URL.decode(Substring(keys.p256dh)),
            let auth = Base64URL.decode(Substring(keys.auth))
        else { return .deadToken }
        guard settings.services.admits(push.token.token) else { return .failed(reason: "not_a_push_service") }
        do {
            let destination = try await outbound.check(push.token.token)
            guard let origin = Self.origin(of: destination.url) else { return .deadToken }
            let body = try WebPushEncryption.encrypt(push.notice.webPayload(), subscriberKey: p256dh, authSecret: auth)
            var request = OutboundRequest(
                .post, destination.url,
                headers: [
                    ("authorization", "vapid t=\(try vapidToken(for: origin)), k=\(publicKey)"),
                    ("content-encoding", "aes128gcm"),
                    ("content-type", "application/octet-stream"),
                    ("ttl", String(max(0, push.expiresAt - clock.nowMillis / 1000))),
                    ("urgency", "high")
                ],
                body: body, connectTimeout: .seconds(3), timeout: .seconds(10), maxResponseBytes: 16 * 1024,
                pins: [OutboundRequest.Pin(destination)])
            request.trustedAuthorities = authorities
            let response = try await client.send(request)
            // RFC 8030 §7.3: a subscription that is gone answers 404 or 410.
            if [404, 410].contains(response.status) { return .deadToken }
            return .from(response)
        } catch is OutboundRefusal {
            return .failed(reason: "refused_by_guard")
        } catch is WebPushEncryption.Failure {
            return .deadToken
        } catch {
            return .from(error)
        }
    }

    /// `scheme://host[:port]` of the endpoint: the VAPID token's audience.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return nil }
        // Foundation gives an IPv6 host with its brackets on some platforms, without on others.
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (components.port.map { ":\($0)" } ?? "")
    }

    private func vapidToken(for origin: String) throws -> String {
        let now = clock.nowMillis
        return try tokens.withLock { tokens in
            if let cached = tokens[origin], now - cached.issuedAt < 3_600_000 { return cached.token }
            let token = try JSONWebToken.es256(
                header: [:], claims: ["aud": origin, "exp": now / 1000 + 12 * 3600, "sub": settings.subject], key: settings.key)
            tokens[origin] = (token, now)
            return token
        }
    }
}
