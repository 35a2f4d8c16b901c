import Foundation
import Testing

/// Who may read and change the webhook settings, and how they are checked.
@Suite struct WebhookSettingsTests: WebhookFixtures {
    @Test func onlyTheAdminChangesTheSettingsAndTheyAreChecked() async throws {
        try await Self.withWebhook { api, _, _ in
            let cast = try await api.cast("whauth", 1)
            for response in [
                try await api.get(Self.hook, as: cast.session(0)),
                try await api.put(Self.hook, ["enabled": false], as: cast.session(0)),
                try await api.post("\(Self.hook)/rotate_secret", as: cast.session(0)),
                try await api.get("\(Self.hook)/deliveries", as: cast.session(0)),
                try await api.post("\(Self.hook)/deliveries/1/redeliver", as: cast.session(0))
            ] {
                #expect(response.status == 403)
            }
            for (body, code) in [
                (["enabled_events": ["group_channel:nonsense"]], 400111),
                (["url": "http://10.0.0.1/hook"], 400111),
                (["url": "http://localhost/hook"], 400111),
                (["url": "http://169.254.169.254/latest"], 400111),
                (["url": "ftp://example.com/"], 400111),
                (["enabled": "yes"], 400104),
                (["enabled": true, "url": ""], 400111)
            ] as [([String: Any], Int)] {
                let response = try await api.put(Self.hook, body)
                #expect(response.status == 400, "\(body)")
                #expect(try response.code == code, "\(body)")
            }
            #expect(try await api.get("\(Self.hook)/deliveries?status=lost").status == 400)
            #expect(try await api.post("\(Self.hook)/deliveries/abc/redeliver").status == 400)
        }
    }
}
