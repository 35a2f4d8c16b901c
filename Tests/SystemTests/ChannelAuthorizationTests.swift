import Foundation
import HTTPTypes
import Testing

/// Who may call each group channel endpoint: no token, an outsider to a private channel, a
/// member, an operator and the admin (API.md §1.7, §3).
@Suite struct ChannelAuthorizationTests {
    enum Role: String, CaseIterable { case anonymous, outsider, member, operatorMember, admin }

    struct Case: Sendable, CustomStringConvertible {
        let method: HTTPRequest.Method
        let path: String
        /// A JSON body template: {self}, {member} and {invitee} are replaced by user ids.
        let body: String
        /// Expected status for member, operator and admin (anonymous is always 401, outsiders 404).
        let member: Int
        let operatorMember: Int
        let admin: Int

        var description: String { "\(method) \(path)" }
    }

    static let cases: [Case] = [
        Case(method: .get, path: "", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .put, path: "", body: #"{"name": "x"}"#, member: 403, operatorMember: 200, admin: 200),
        Case(method: .delete, path: "", body: "", member: 403, operatorMember: 200, admin: 200),
        Case(method: .get, path: "/members", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .get, path: "/members/{member}", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .get, path: "/operators", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .delete, path: "/operators?operator_ids={member}", body: "", member: 403, operatorMember: 200, admin: 200),
        Case(method: .put, path: "/freeze", body: #"{"freeze": true}"#, member: 403, operatorMember: 200, admin: 200),
        Case(method: .get, path: "/metadata", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .delete, path: "/metadata", body: "", member: 403, operatorMember: 200, admin: 200),
        Case(method: .get, path: "/metadata/seed", body: "", member: 200, operatorMember: 200, admin: 200),
        Case(method: .put, path: "/metadata/seed", body: #"{"value": "v"}"#, member: 403, operatorMember: 200, admin: 200),
        Case(method: .delete, path: "/metadata/seed", body: "", member: 403, operatorMember: 200, admin: 200),
        Case(method: .put, path: "/hide", body: #"{"user_id": "{self}"}"#, member: 200, operatorMember: 200, admin: 200),
        Case(method: .delete, path: "/hide", body: #"{"user_id": "{self}"}"#, member: 200, operatorMember: 200, admin: 200),
        Case(method: .put, path: "/reset_user_history", body: #"{"user_id": "{self}"}"#, member: 200, operatorMember: 200, admin: 200),
        Case(method: .put, path: "/leave", body: "", member: 200, operatorMember: 200, admin: 400),
        Case(method: .post, path: "/invite", body: #"{"user_ids": ["{invitee}"]}"#, member: 200, operatorMember: 200, admin: 200),
        Case(method: .post, path: "/operators", body: #"{"operator_ids": ["{member}"]}"#, member: 403, operatorMember: 200, admin: 200),
        Case(method: .post, path: "/metadata", body: #"{"metadata": {"new": "v"}}"#, member: 403, operatorMember: 201, admin: 201),
        Case(method: .put, path: "/metadata", body: #"{"metadata": {"seed": "v2"}}"#, member: 403, operatorMember: 200, admin: 200)
    ]

    @Test(arguments: cases)
    func everyRoleGetsItsDocumentedAnswer(_ testCase: Case) async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("authz", 4)
            // users[0] operator, users[1] member, users[2] outsider; users[3] is invited later.
            for role in Role.allCases {
                let url = try await api.createChannel(["user_ids": [users[0], users[1]], "operator_ids": [users[0]]])
                #expect(try await api.post("/v3/group_channels/\(url)/metadata", ["metadata": ["seed": "s"]]).status == 201)
                let credential: Credential
                let selfID: String
                switch role {
                case .anonymous: (credential, selfID) = (.none, users[1])
                case .outsider: (credential, selfID) = (users.session(2), users[2])
                case .member: (credential, selfID) = (users.session(1), users[1])
                case .operatorMember: (credential, selfID) = (users.session(0), users[0])
                case .admin: (credential, selfID) = (.admin, users[1])
                }
                let path = "/v3/group_channels/\(url)" + testCase.path.replacingOccurrences(of: "{member}", with: users[1])
                let body = testCase.body.replacingOccurrences(of: "{self}", with: selfID)
                    .replacingOccurrences(of: "{member}", with: users[1]).replacingOccurrences(of: "{invitee}", with: users[3])
                let response = try await api.raw(testCase.method, path, body: body.isEmpty ? nil : body, as: credential)
                let expected: Int =
                    switch role {
                    case .anonymous: 401
                    case .outsider: 404
                    case .member: testCase.member
                    case .operatorMember: testCase.operatorMember
                    case .admin: testCase.admin
                    }
                #expect(response.status == expected, "\(role) \(testCase): \(response.text)")
            }
        }
    }

    @Test func nobodyActsForAnotherUser() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("actfor", 3)
            let url = try await api.createChannel(["user_ids": [users[1], users[2]], "is_public": true], as: users.session(0))
            for path in ["accept", "decline", "join", "hide", "reset_user_history"] {
                let response = try await api.put("/v3/group_channels/\(url)/\(path)", ["user_id": users[2]], as: users.session(1))
                #expect(response.status == 403, "\(path)")
                #expect(try response.code == 400108)
            }
            let leave = try await api.put("/v3/group_channels/\(url)/leave", ["user_ids": [users[2]]], as: users.session(1))
            #expect(leave.status == 403)
            let invite = try await api.post(
                "/v3/group_channels/\(url)/invite", ["user_ids": [users[0]], "inviter_id": users[2]], as: users.session(1))
            #expect(invite.status == 403)
            // The admin still reads the members list.
            _ = try await api.get("/v3/group_channels/\(url)/members").decode(MemberList.self)
            #expect(try await api.memberIDs(url).count == 3)
        }
    }
}
