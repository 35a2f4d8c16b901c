import ByteCoding
import CurlHTTP
import Foundation
import ParleyCore
import _CryptoExtras

/// Firebase Cloud Messaging, HTTP v1 API (API.md §12.5): the service account's RS256 assertion
/// is exchanged at its `token_uri` for an access token, which authorises `messages:send`.
final class FCMProvider: PushProvider {
    /// What the service-account JSON gives.
    struct Credentials: Sendable {
        var projectID: String
        var clientEmail: String
        var privateKey: _RSA.Signing.PrivateKey
        var tokenURI: String

        /// Reads Google's service-account JSON file.
        init(json: Data) throws {
            guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
                let projectID = object["project_id"] as? String, let clientEmail = object["client_email"] as? String,
                let pem = object["private_key"] as? String
            else { throw PushConfigurationError("the FCM credentials need project_id, client_email and private_key") }
            self.projectID = projectID
            self.clientEmail = clientEmail
            self.privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
            self.tokenURI = object["token_uri"] as? String ?? "https://oauth2.googleapis.com/token"
        }
    }

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    let type = PushTokenType.gcm
    private let credentials: Credentials
    private let url: String
    private let client: CurlClient
    private let authorities: CertificateAuthorities?
    private let clock: ParleyCore.Clock
    private let accessTokens: AccessTokens

    init(credentials: Credentials, url: String, client: CurlClient, authorities: CertificateAuthorities?, clock: ParleyCore.Clock) {
        self.credentials = credentials
        self.url = url
        self.client = client
        self.authorities = authorities
        self.clock = clock
        accessTokens = AccessTokens(now: { clock.nowMillis }) {
            let now = clock.nowMillis / 1000
            let assertion = try JSONWebToken.rs256(
                header: [:],
                claims: ["iss": credentials.clientEmail, "scope": Self.scope, "aud": credentials.tokenURI, "iat": now, "exp": now + 3600],
                key: credentials.privateKey)
            let response = try await client.send(
                ProviderRequests.form(
                    credentials.tokenURI, [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)],
                    authorities: authorities))
            return try ProviderRequests.accessToken(response)
        }
    }

    func send(_ push: DevicePush) async -> PushOutcome {
        let bearer: String
        do { bearer = try await accessTokens.token() } catch { return Self.tokenFailure(error) }
        let (message, sendbird) = push.notice.dataMessage()
        let ttl = max(0, push.expiresAt - clock.nowMillis / 1000)
        // Written directly: Foundation's serializer cost a tenth of a push.
        var body = JSONWriter(capacity: 4096)
        body.object { json in
            json.key("message")
            json.object { json in
                json.field("token", push.token.token)
                json.key("data")
                json.object { data in
                    data.field("message", message)
                    data.field("sendbird", sendbird)
                }
                json.key("android")
                json.object { android in
                    android.field("priority", "high")
                    android.field("ttl", "\(ttl)s")
                }
            }
        }
        do {
            let request = ProviderRequests.json(
                url + "/v1/projects/\(credentials.projectID)/messages:send", bearer: bearer,
                body: body.bytes, authorities: authorities)
            let response = try await client.send(request)
            if response.status == 401 {
                await accessTokens.invalidate()
                return .retry(after: nil, reason: "credentials")
            }
            if Self.declaresTokenDead(response) { return .deadToken }
            return .from(response)
        } catch {
            return .from(error)
        }
    }

    /// `UNREGISTERED`, or `INVALID_ARGUMENT` about the token (not about the rest of the message).
    static func declaresTokenDead(_ response: OutboundResponse) -> Bool {
        guard [400, 404].contains(response.status),
            let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else { return false }
        let details = error["details"] as? [[String: Any]] ?? []
        let codes = details.compactMap { $0["errorCode"] as? String }
        if codes.contains("UNREGISTERED") { return true }
        let violations = details.flatMap { $0["fieldViolations"] as? [[String: Any]] ?? [] }
        return (codes.contains("INVALID_ARGUMENT") || error["status"] as? String == "INVALID_ARGUMENT")
            && violations.contains { ($0["field"] as? String) == "message.token" }
    }

    /// A token endpoint that refuses the credentials fails the push; one that cannot be reached
    /// makes it worth another try.
    static func tokenFailure(_ error: any Error) -> PushOutcome {
        if error is ProviderCredentialsRefused { return .failed(reason: "credentials") }
        if error is OutboundError || error is CancellationError { return .from(error) }
        return .failed(reason: "credentials")
    }
}
