import Testing

/// The application's push templates (API.md §12.2) through HTTP: the admin's, in Sendbird's shape.
@Suite(.serialized) struct PushTemplateTests {
    static let path = "/v3/applications/push/message_templates"

    @Test func theAdminReadsAndChangesTheTwoTemplates() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushtplapp", 1)
            let all = try await api.get(Self.path).rawJSON["push_message_templates"] as? [[String: Any]] ?? []
            #expect(all.map { $0["template_name"] as? String } == ["default", "alternative"])
            let original = try #require(all.first?["template"] as? [String: String])
            #expect(original["MESG"] == "{sender_name}: {message}")
            let changed = try await api.put("\(Self.path)/default", ["template": ["MESG": "{sender_name} says {message}"]])
            #expect(changed.status == 200, "\(changed.text)")
            let one = try await api.get("\(Self.path)/default").rawJSON["push_message_templates"] as? [[String: Any]]
            let texts = try #require(one?.first?["template"] as? [String: String])
            #expect(texts["MESG"] == "{sender_name} says {message}" && texts["FILE"] == original["FILE"], "only MESG changed")
            // The admin's only; refusals change nothing.
            #expect(try await api.get(Self.path, as: cast.session(0)).status == 403)
            #expect(try await api.put("\(Self.path)/default", ["template": ["MESG": "x"]], as: cast.session(0)).status == 403)
            #expect(try await api.get("\(Self.path)/fancy").status == 404)
            let long = try await api.put("\(Self.path)/default", ["template": ["FILE": String(repeating: "a", count: 1025)]])
            #expect(long.status == 400)
            #expect(try long.code == 400110)
            #expect(try await api.put("\(Self.path)/default", ["template": ["ADMM": "a\u{1}"]]).status == 400)
            #expect(try await api.put("\(Self.path)/default", ["template": ["MESG": original["MESG"]!]]).status == 200)
        }
    }
}
