import CurlHTTP
import Foundation
import ParleyContainer
import ParleyCore
import Testing

/// The push providers' stand-in (`Push/StandIn/push_standin.py`): APNs over HTTP/2 with TLS,
/// FCM's OAuth and send endpoints, HMS, and a Web Push service that decrypts what it gets, on
/// loopback with a test certificate authority. Each accepted push is recorded as the provider
/// received it; the stand-in checks signatures, claims and headers as the real services do.
///
/// One stand-in serves every test of the run (`shared`): each test's tokens are its own, and a
/// Python process per test, all starting at once, starved the timing of the other suites.
final class PushStandIn: Sendable {
    /// Started by the first test that needs it; it exits when this process does (its stdin closes).
    static let shared = Result(catching: { try PushStandIn() })

    struct Handshake: Decodable {
        let port: Int
        let ca_file: String
        let apns_key_file: String
        let apns_key_id: String
        let apns_team_id: String
        let apns_topic: String
        let fcm_credentials_file: String
        let vapid_private_key_file: String
        let vapid_subject: String
        let hms_app_id: String
        let hms_app_secret: String
    }

    let handshake: Handshake
    private let process: StandInProcess
    private let client = CurlClient()
    private let authorities: CertificateAuthorities
    var base: String { "https://127.0.0.1:\(handshake.port)" }

    init(quiet: Bool = false) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = try StandInProcess(
            script: "Push/StandIn/push_standin.py", arguments: ["--dir", directory.path] + (quiet ? ["--quiet"] : []),
            missing: "is hypercorn installed?")
        handshake = try process.handshake(Handshake.self)
        authorities = CertificateAuthorities(file: handshake.ca_file)
    }

    deinit {
        client.shutdown()
    }

    /// Points a server's providers at the stand-in.
    func configure(_ config: inout Config, apns: Bool = true, fcm: Bool = true, hms: Bool = true, web: Bool = true) {
        if apns {
            config.pushProviders.apnsKeyFile = handshake.apns_key_file
            config.pushProviders.apnsKeyID = handshake.apns_key_id
            config.pushProviders.apnsTeamID = handshake.apns_team_id
            config.pushProviders.apnsTopic = handshake.apns_topic
            config.pushProviders.apnsURL = base
        }
        if fcm {
            config.pushProviders.fcmCredentialsFile = handshake.fcm_credentials_file
            config.pushProviders.fcmURL = base
        }
        if hms {
            config.pushProviders.hmsAppID = handshake.hms_app_id
            config.pushProviders.hmsAppSecret = handshake.hms_app_secret
            config.pushProviders.hmsTokenURL = base + "/hms/token"
            config.pushProviders.hmsURL = base + "/hms"
        }
        if web {
            config.pushProviders.vapidKeyFile = handshake.vapid_private_key_file
            config.pushProviders.vapidSubject = handshake.vapid_subject
            // Subscription endpoints must be at a listed push service, and pass the outbound
            // guard: the stand-in is the one listed, and allowed as the operator's destination.
            config.pushProviders.webPushServices = try! WebPushServices([base])
            config.outboundAllowHosts.append("127.0.0.1:\(handshake.port)")
        }
        config.pushProviders.caFile = handshake.ca_file
        config.push.pollInterval = .milliseconds(50)
    }

    private func call(_ method: OutboundRequest.Method, _ path: String) async throws -> [String: Any] {
        var request = OutboundRequest(method, base + path, body: method == .post ? [] : nil)
        request.trustedAuthorities = authorities
        // A device's record under a failover's load is thousands of pushes.
        request.maxResponseBytes = 64 << 20
        let response = try await client.send(request)
        guard (200...299).contains(response.status) else { throw TestFailure("stand-in \(path) answered \(response.status)") }
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// Every push the stand-in got for `provider` (`apns`, `fcm`, `hms`, `web`), refused ones
    /// included (their `status` says so).
    func received(_ provider: String) async throws -> [[String: Any]] {
        try await call(.get, "/received?provider=\(provider)")["pushes"] as? [[String: Any]] ?? []
    }

    /// The accepted pushes to one token.
    func accepted(_ provider: String, token: String) async throws -> [[String: Any]] {
        let query = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        let pushes = try await call(.get, "/received?provider=\(provider)&token=\(query)")["pushes"] as? [[String: Any]] ?? []
        return pushes.filter { $0["token"] as? String == token && $0["status"] as? Int ?? 0 < 300 }
    }

    func stats() async throws -> [String: Any] { try await call(.get, "/stats") }

    /// A browser's new subscription (`PushSubscription` JSON), whose pushes the stand-in decrypts;
    /// `gone` makes its endpoint answer 410.
    func webSubscription(gone: Bool = false) async throws -> [String: Any] {
        try await call(.post, "/webpush/new" + (gone ? "?gone=1" : ""))
    }
}
