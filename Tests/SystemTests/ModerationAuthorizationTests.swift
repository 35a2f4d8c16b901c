import Foundation
import Testing

/// Who may ban and mute in a group channel (API.md §7.1, §7.2).
@Suite struct ModerationAuthorizationTests {
    /// Who may moderate: the admin and the channel's operators, never an operator on another
    /// operator; nobody acts for someone else.
    @Test func theAuthorisationMatrix() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("modz", 5)
            let (op, op2, member, target, outsider) = (cast[0], cast[1], cast[2], cast[3], cast[4])
            let channel = try await api.createChannel(["user_ids": [op, op2, member, target], "operator_ids": [op, op2]])
            let base = "/v3/group_channels/\(channel)"
            for path in ["ban", "mute"] {
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: .none).status == 401)
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(4)).status == 404, "outsider")
                let byMember = try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(2))
                #expect(byMember.status == 403, "member: \(byMember.text)")
                let onOperator = try await api.post("\(base)/\(path)", ["user_id": op2], as: cast.session(0))
                #expect(onOperator.status == 403, "an operator on an operator")
                let asOther = try await api.post("\(base)/\(path)", ["user_id": target, "agent_id": op2], as: cast.session(0))
                #expect(asOther.status == 403, "acting for someone else")
                #expect(try await api.get("\(base)/\(path)", as: cast.session(2)).status == 403)
                #expect(try await api.get("\(base)/\(path)", as: cast.session(4)).status == 404)
                #expect(try await api.get("\(base)/\(path)", as: .none).status == 401)
                #expect(try await api.get("\(base)/\(path)").rawJSON["total_\(path)_count"] as? Int == 0)
            }
            #expect(try await api.post("\(base)/mute", ["user_id": target], as: cast.session(0)).status == 200)
            #expect(try await api.delete("\(base)/mute/\(target)", as: cast.session(2)).status == 403)
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(3)).rawJSON["is_muted"] as? Bool == true, "their own")
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(2)).status == 403, "someone else's")
            // The admin may ban an operator.
            #expect(try await api.post("\(base)/ban", ["user_id": op2, "agent_id": op]).status == 200)
            #expect(try await api.get("/v3/users/\(op2)/ban", as: cast.session(0)).status == 403)
            #expect(try await api.get("/v3/audit_logs", as: cast.session(0)).status == 403)
            _ = outsider
            _ = member
        }
    }
}
