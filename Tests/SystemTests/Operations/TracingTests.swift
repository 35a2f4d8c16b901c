import Foundation
import Testing

/// Tracing (issue 37): a `parley serve` with `PARLEY_TRACING` exports spans over OTLP/HTTP to a
/// local collector. A caller's sampled `traceparent` is followed: its request's span, the spans of
/// its transactions and of its outbound calls are in that trace, the outbound call carries it on
/// (`traceparent` to the translation provider), and so does the webhook delivery the request
/// queued, sent later by the dispatcher, and the push to the offline member. Unsampled callers
/// leave no spans.
@Suite struct TracingTests {
    static func randomHex(_ bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// The JSON body of a raw answer.
    static func json(_ answer: (status: Int, text: String)) -> [String: Any] {
        let body = answer.text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    @Test func aCallersTraceIsFollowedThroughTransactionsOutboundCallsAndWebhooks() async throws {
        let (collector, provider, receiver) = (OTLPCollector(), FakeTranslationProvider(.google), WebhookReceiver())
        try await collector.run { collectorURL in
            try await provider.run { providerURL in
                try await receiver.run { receiverPort in
                    try await OwnDatabase.with { database in
                        let push = try PushStandIn.shared.get().handshake
                        let process = try await ServerProcess(environment: [
                            "PARLEY_FCM_CREDENTIALS_FILE": push.fcm_credentials_file, "PARLEY_FCM_URL": "https://127.0.0.1:\(push.port)",
                            "PARLEY_PUSH_CA_FILE": push.ca_file,
                            "DATABASE_URL": database, "PARLEY_TRACING": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": collectorURL,
                            // Only callers' sampled traces: this process starts none of its own.
                            "PARLEY_TRACING_SAMPLE_RATIO": "0",
                            "OTEL_BSP_SCHEDULE_DELAY": "100", "PARLEY_OUTBOUND_ALLOW_HOSTS": "127.0.0.1:\(receiverPort)",
                            "PARLEY_TRANSLATION_PROVIDER": "google", "PARLEY_TRANSLATION_URL": providerURL,
                            "PARLEY_TRANSLATION_KEY": provider.key
                        ])
                        defer { _ = process.stop() }
                        try await Self.exercise(process, collector, provider, receiver, receiverPort)
                    }
                }
            }
        }
    }

    static func exercise(
        _ process: ServerProcess, _ collector: OTLPCollector, _ provider: FakeTranslationProvider, _ receiver: WebhookReceiver,
        _ receiverPort: Int
    ) async throws {
        let admin = ["Api-Token": TestServer.apiToken]
        let hook = #"{"enabled":true,"url":"http://127.0.0.1:\#(receiverPort)/hook","enabled_events":["*"]}"#
        #expect(try await process.request("PUT", "/v3/applications/settings/webhook", headers: admin, body: hook).status == 200)
        let (user, offline, device) = ("traced-\(randomHex(4))", "offline-\(randomHex(4))", "fcm-\(randomHex(8))")
        var sessions: [String] = []
        for id in [user, offline] {
            let created = try await process.request(
                "POST", "/v3/users", headers: admin,
                body: #"{"user_id":"\#(id)","nickname":"T","profile_url":"","issue_session_token":true}"#)
            sessions.append(try #require(json(created)["session_token"] as? String))
        }
        let session = ["Session-Token": sessions[0]]
        let registered = try await process.request(
            "POST", "/v3/users/\(offline)/push/gcm", headers: ["Session-Token": sessions[1]], body: #"{"gcm_reg_token":"\#(device)"}"#)
        #expect(registered.status == 200)
        let made = try await process.request(
            "POST", "/v3/group_channels", headers: admin, body: #"{"user_ids":["\#(user)","\#(offline)"]}"#)
        let channel = try #require(json(made)["channel_url"] as? String, "\(made.text)")
        let base = "/v3/group_channels/\(channel)/messages"
        let (traced, unsampled) = (randomHex(16), randomHex(16))
        func within(_ trace: String, sampled: Bool = true) -> [String: String] {
            session.merging(["traceparent": "00-\(trace)-\(randomHex(8))-\(sampled ? "01" : "00")"]) { $1 }
        }
        let sent = try await process.request("POST", base, headers: within(traced), body: #"{"message":"hello"}"#)
        #expect(sent.status == 201)
        let id = try #require(json(sent)["message_id"] as? Int)
        let translated = try await process.request(
            "POST", "\(base)/\(id)/translation", headers: within(traced), body: #"{"target_langs":["es"]}"#)
        #expect(translated.status == 200)
        // The provider was called inside the trace, and the webhook of the send, later, too.
        let carried = provider.received.last?.headers["traceparent"] ?? ""
        #expect(carried.hasPrefix("00-\(traced)-") && carried.hasSuffix("-01"), "\(carried)")
        let delivered = try await eventually(within: .seconds(20)) {
            receiver.received(about: channel).contains { $0.json["category"] as? String == "group_channel:message_send" }
        }
        #expect(delivered)
        let webhook = receiver.received(about: channel).first { $0.json["category"] as? String == "group_channel:message_send" }
        #expect(webhook?.headers["traceparent"]?.hasPrefix("00-\(traced)-") == true, "\(webhook?.headers ?? [:])")
        let standIn = try PushStandIn.shared.get()
        #expect(try await eventually(within: .seconds(20)) { try await !standIn.accepted("fcm", token: device).isEmpty })
        let pushed = try await standIn.accepted("fcm", token: device).first?["headers"] as? [String: Any]
        #expect((pushed?["traceparent"] as? String)?.hasPrefix("00-\(traced)-") == true, "\(pushed ?? [:])")
        // Unsampled callers, and a caller without a trace (the ratio is 0).
        _ = try await process.request("GET", "/v3/users/\(user)", headers: within(unsampled, sampled: false))
        _ = try await process.request("GET", "/v3/users/\(user)", headers: session)
        let names = [
            "POST /v3/group_channels/{channel_url}/messages", "POST /v3/group_channels/{channel_url}/messages/{message_id}/translation",
            "db.shared_transaction", "db.round_trip", "HTTP POST", "webhook.deliver", "push.send"
        ]
        let found = try await eventually(within: .seconds(20)) {
            collector.anyExportHolds(traced.hexBytes) && names.allSatisfy { collector.anyExportHolds(Array($0.utf8)) }
        }
        #expect(found, "spans of the trace: \(collector.exports.count) exports")
        #expect(!collector.anyExportHolds(unsampled.hexBytes), "an unsampled caller's trace is not recorded")
        #expect(!collector.anyExportHolds(Array("GET /v3/users/{user_id}".utf8)), "no trace started here at ratio 0")
    }
}
