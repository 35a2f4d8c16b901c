import Foundation
import ParleyContainer
import ParleyCore
import Testing

/// The suites whose servers have providers, one test at a time: each such server needs a database
/// of its own (created and migrated) and polls its queue, and a dozen of them at once, beside the
/// other suites, starved those suites' timing in CI.
@Suite(.serialized) enum PushWithProviders {}

/// A server whose providers are the stand-in's, and the calls push tests make.
protocol PushFixtures {}

extension PushFixtures {
    /// A server on a database of its own (every instance with providers claims any queued push
    /// of its database, so two tests' servers must not share one), its providers the stand-in's.
    static func withPushServer(
        _ adjust: @escaping @Sendable (inout Config) -> Void = { _ in }, clock: ParleyCore.Clock = .system,
        _ body: @escaping @Sendable (API, PushStandIn, String) async throws -> Void
    ) async throws {
        let standIn = try PushStandIn.shared.get()
        try await OwnDatabase.with { database in
            try await TestServer.withAPI(
                { config in
                    config.databaseURL = database
                    standIn.configure(&config)
                    adjust(&config)
                }, clock: clock
            ) { api in
                try await body(api, standIn, database)
            }
        }
    }

    /// A device token of a kind the stand-in answers as named (`dead…`, `0429…`, `busy…`).
    static func apnsToken(_ prefix: String = "") -> String {
        let hex = prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return hex + String(repeating: "0", count: 64 - hex.count)
    }

    static func register(_ api: API, _ cast: Cast, _ index: Int, _ type: String, _ token: Any) async throws {
        let field = ["apns": "apns_device_token", "gcm": "gcm_reg_token", "huawei": "huawei_device_token", "web": "web_push_subscription"][
            type]!
        let answer = try await api.post("/v3/users/\(cast[index])/push/\(type)", [field: token], as: cast.session(index))
        #expect(answer.status == 200, "registering a \(type) token: \(answer.text)")
    }

    @discardableResult
    static func send(_ api: API, _ channel: String, _ text: String, as credential: Credential, _ extra: [String: Any] = [:]) async throws
        -> Int
    {
        let answer = try await api.post(
            "/v3/group_channels/\(channel)/messages", extra.merging(["message": text]) { mine, _ in mine }, as: credential)
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer.rawJSON["message_id"] as? Int)
    }

    /// The `sendbird` dictionary of an APNs push as the stand-in received it.
    static func sendbird(_ push: [String: Any]) -> [String: Any] {
        (push["payload"] as? [String: Any])?["sendbird"] as? [String: Any] ?? [:]
    }

    static func aps(_ push: [String: Any]) -> [String: Any] {
        (push["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
    }

    /// The texts of the APNs pushes a token accepted.
    static func texts(_ standIn: PushStandIn, apns token: String) async throws -> [String] {
        try await standIn.accepted("apns", token: token).compactMap { sendbird($0)["message"] as? String }
    }

    /// Sends a last message that every listed token must get, and waits for it: after it, any
    /// push that was going to arrive for the earlier messages has (one dispatcher, in order).
    static func barrier(_ api: API, _ standIn: PushStandIn, _ channel: String, as credential: Credential, tokens: [String]) async throws {
        let marker = "barrier-\(UUID().uuidString)"
        try await send(api, channel, marker, as: credential)
        #expect(
            try await eventually(within: .seconds(20)) {
                for token in tokens where !(try await texts(standIn, apns: token).contains(marker)) { return false }
                return true
            }, "the barrier message was not pushed")
    }
}
