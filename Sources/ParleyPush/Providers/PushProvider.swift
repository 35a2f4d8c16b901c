import CurlHTTP
import Foundation
import ParleyCore

/// One push to one device, as the dispatcher hands it to the provider of its token's type.
struct DevicePush: Sendable {
    let token: PushToken
    let notice: PushNotice
    /// Unix seconds after which the push is worthless (the 10-minute limit, API.md §12.6).
    let expiresAt: Int64
}

/// What a provider answered for one push.
enum PushOutcome: Sendable, Equatable {
    case delivered
    /// The provider says the token is dead: it is removed from its owner.
    case deadToken
    /// Worth another try (timeout, 429, 5xx), no sooner than `after` when the provider said so.
    case retry(after: Duration?, reason: String)
    /// Not worth another try (refused credentials, a payload the provider rejects, the guard).
    case failed(reason: String)

    /// The reason label of the metrics (never a token or text).
    var reason: String {
        switch self {
        case .delivered: "delivered"
        case .deadToken: "dead_token"
        case .retry(_, let reason), .failed(let reason): reason
        }
    }

    /// The outcome of a provider's answer that says nothing more specific: 2xx delivered; 429
    /// and 5xx retried (with `Retry-After`); anything else failed.
    static func from(_ response: OutboundResponse) -> PushOutcome {
        switch response.status {
        case 200...299: .delivered
        case 429: .retry(after: response.retryAfter, reason: "throttled")
        case 500...599: .retry(after: response.retryAfter, reason: "provider_error")
        case 401, 403: .failed(reason: "credentials")
        default: .failed(reason: "refused_\(response.status)")
        }
    }

    /// A transfer that got no answer is retried; a cancelled one (shutting down) too.
    static func from(_ error: any Error) -> PushOutcome {
        switch error {
        case is CancellationError: .retry(after: nil, reason: "interrupted")
        case OutboundError.timedOut: .retry(after: nil, reason: "timeout")
        case OutboundError.couldNotConnect: .retry(after: nil, reason: "unreachable")
        // libcurl's code says which failure (a reset stream, a broken connection) without any
        // of the request's data.
        case OutboundError.failed(let code, _): .retry(after: nil, reason: "transfer_\(code)")
        default: .retry(after: nil, reason: "transfer")
        }
    }
}

/// A push service: APNs, FCM, HMS or Web Push (API.md §12.5).
protocol PushProvider: Sendable {
    var type: PushTokenType { get }
    func send(_ push: DevicePush) async -> PushOutcome
}

/// The requests the providers' HTTP APIs take.
enum ProviderRequests {
    /// A JSON POST with a bearer token, multiplexed where the provider speaks HTTP/2.
    static func json(_ url: String, bearer: String, body: [UInt8], authorities: CertificateAuthorities?) -> OutboundRequest {
        var request = OutboundRequest(
            .post, url, headers: [("authorization", "Bearer " + bearer), ("content-type", "application/json")], body: body,
            timeout: .seconds(10), maxResponseBytes: 64 * 1024)
        request.multiplexes = true
        request.trustedAuthorities = authorities
        return request
    }

    /// An OAuth token request: a form POST (RFC 6749 §4.1.3).
    static func form(_ url: String, _ fields: [(String, String)], authorities: CertificateAuthorities?) -> OutboundRequest {
        let body = fields.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
        var request = OutboundRequest(
            .post, url, headers: [("content-type", "application/x-www-form-urlencoded")], body: Array(body.utf8), timeout: .seconds(10),
            maxResponseBytes: 64 * 1024)
        request.trustedAuthorities = authorities
        return request
    }

    private static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// An OAuth token answer: `access_token` and `expires_in`.
    static func accessToken(_ response: OutboundResponse) throws -> (token: String, expiresInSeconds: Int64) {
        guard (200...299).contains(response.status),
            let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let token = object["access_token"] as? String
        else { throw ProviderCredentialsRefused(status: response.status) }
        let expiresIn = (object["expires_in"] as? NSNumber)?.int64Value ?? 3600
        return (token, expiresIn)
    }
}

/// The provider's token endpoint refused the app's credentials.
struct ProviderCredentialsRefused: Error {
    let status: Int
}
