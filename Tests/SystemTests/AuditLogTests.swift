import Foundation
import Testing

/// The audit log (API.md §7.5): what moderators did, filtered and paged, and read-only.
@Suite struct AuditLogTests: ModerationFixtures {
    @Test func theAuditLogRecordsModeratorActionsAndFilters() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("aud", 3)
            let (op, target, other) = (cast[0], cast[1], cast[2])
            let channel = try await api.createChannel(["user_ids": [op, target, other], "operator_ids": [op]])
            let base = "/v3/group_channels/\(channel)"
            let sent = try await message(api, channel, from: other, "rude")
            let messageID = try #require(sent.rawJSON["message_id"] as? Int)
            let own = try await message(api, channel, from: op, "mine")
            #expect(try await api.post("\(base)/mute", ["user_id": target, "seconds": 5], as: cast.session(0)).status == 200)
            #expect(try await api.put("\(base)/freeze", ["freeze": true], as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/messages/\(messageID)", as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/messages/\(own.rawJSON["message_id"] as? Int ?? 0)", as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/ban", ["user_id": target]).status == 200)
            #expect(try await api.delete(base).status == 200)

            let all = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=100")
            let entries = all.rawJSON["audit_logs"] as? [[String: Any]] ?? []
            #expect(
                entries.map { $0["action"] as? String } == ["channel_deleted", "ban", "message_deleted", "freeze", "mute"], "\(all.text)")
            #expect(entries.first { $0["action"] as? String == "mute" }?["actor"] as? String == op)
            #expect(entries.first { $0["action"] as? String == "ban" }?["actor"] as? String == "admin")
            #expect(entries.first { $0["action"] as? String == "message_deleted" }?["message_id"] as? Int == messageID)
            #expect(entries.first { $0["action"] as? String == "message_deleted" }?["target_user_id"] as? String == other)

            // Filters and pages.
            let bans = try await api.get("/v3/audit_logs?channel_url=\(channel)&action=ban")
            #expect((bans.rawJSON["audit_logs"] as? [[String: Any]])?.count == 1)
            let byOperator = try await api.get("/v3/audit_logs?channel_url=\(channel)&actor_id=\(op)")
            #expect((byOperator.rawJSON["audit_logs"] as? [[String: Any]])?.count == 3)
            let first = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=2")
            let next = try #require(first.rawJSON["next"] as? String)
            let second = try await api.get("/v3/audit_logs?channel_url=\(channel)&limit=2&token=\(next)")
            #expect((second.rawJSON["audit_logs"] as? [[String: Any]])?.first?["action"] as? String == "message_deleted")
            #expect(try await api.get("/v3/audit_logs?action=nonsense").status == 400)
            // Read-only: no route changes it.
            #expect(try await api.delete("/v3/audit_logs").status == 405)
        }
    }
}
