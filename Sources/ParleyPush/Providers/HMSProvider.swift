import ByteCoding
import CurlHTTP
import Foundation
import ParleyCore

/// Huawei Push Kit (API.md §12.5): the app's id and secret are exchanged for an access token
/// (client credentials), which authorises `messages:send`. Push Kit answers 200 with a code of
/// its own: `80000000` sent, `80300007` the token is invalid.
final class HMSProvider: PushProvider {
    struct Settings: Sendable {
        var appID: String
        var appSecret: String
        var tokenURL: String
        var url: String
    }

    let type = PushTokenType.huawei
    private let settings: Settings
    private let client: CurlClient
    private let authorities: CertificateAuthorities?
    private let clock: ParleyCore.Clock
    private let accessTokens: AccessTokens

    init(settings: Settings, client: CurlClient, authorities: CertificateAuthorities?, clock: ParleyCore.Clock) {
        self.settings = settings
        self.client = client
        self.authorities = authorities
        self.clock = clock
        accessTokens = AccessTokens(now: { clock.nowMillis }) {
            let response = try await client.send(
                ProviderRequests.form(
                    settings.tokenURL,
                    [("grant_type", "client_credentials"), ("client_id", settings.appID), ("client_secret", settings.appSecret)],
                    authorities: authorities))
            return try ProviderRequests.accessToken(response)
        }
    }

    func send(_ push: DevicePush) async -> PushOutcome {
        let bearer: String
        do { bearer = try await accessTokens.token() } catch { return FCMProvider.tokenFailure(error) }
        let (message, sendbird) = push.notice.dataMessage(form: .string)
        let ttl = max(0, push.expiresAt - clock.nowMillis / 1000)
        do {
            var data = JSONWriter()
            data.object { data in
                data.field("message", message)
                data.field("sendbird", sendbird)
            }
            var body = JSONWriter(capacity: 4096)
            body.object { json in
                json.field("validate_only", false)
                json.key("message")
                json.object { json in
                    json.field("data", String(decoding: data.bytes, as: UTF8.self))
                    json.key("token")
                    json.array { $0.string(push.token.token) }
                    json.key("android")
                    json.object { android in
                        android.field("urgency", "HIGH")
                        android.field("ttl", "\(ttl)s")
                    }
                }
            }
            let request = ProviderRequests.json(
                settings.url + "/v1/\(settings.appID)/messages:send", bearer: bearer,
                body: body.bytes, authorities: authorities)
            let response = try await client.send(request)
            let code = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["code"] as? String
            switch (response.status, code) {
            case (200, "80000000"): return .delivered
            case (_, "80300007"): return .deadToken
            case (_, "80200003"), (401, _):
                await accessTokens.invalidate()
                return .retry(after: nil, reason: "credentials")
            case (200, _): return .failed(reason: "refused")
            default: return .from(response)
            }
        } catch {
            return .from(error)
        }
    }
}
