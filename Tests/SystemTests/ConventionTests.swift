import Foundation
import HTTPTypes
import HummingbirdTesting
import ParleyContainer
import ParleyHTTP
import Testing

/// API.md §1: health, routing errors, body and type errors, request ids.
@Suite struct ConventionTests {
    @Test func healthAndReadinessNeedNoToken() async throws {
        try await TestServer.withAPI { api in
            let health = try await api.get("/health", as: .none)
            #expect(health.status == 200)
            #expect(try health.decode(HealthBody.self).status == "ok")
            let ready = try await api.get("/ready", as: .none)
            #expect(ready.status == 200)
        }
    }

    @Test func readinessFailsWhenAMigrationIsNotApplied() async throws {
        let extra = FileManager.default.temporaryDirectory.appendingPathComponent(uniqueID("migrations"))
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestServer.packageRoot.appendingPathComponent("migrations").path) {
            try FileManager.default.copyItem(
                at: TestServer.packageRoot.appendingPathComponent("migrations/\(name)"), to: extra.appendingPathComponent(name))
        }
        try "SELECT 1;".write(to: extra.appendingPathComponent("9999_not_applied.sql"), atomically: true, encoding: .utf8)
        try await TestServer.withAPI({ $0.migrationsDirectory = extra.path }) { api in
            let ready = try await api.get("/ready", as: .none)
            #expect(ready.status == 503)
            #expect(try ready.code == 500902)
        }
    }

    @Test func unknownRouteIs404AndWrongMethodIs405() async throws {
        try await TestServer.withAPI { api in
            let unknown = try await api.get("/v3/nothing_here")
            #expect(unknown.status == 404)
            #expect(try unknown.code == 400930)
            #expect(try unknown.decode(ErrorBody.self).error == true)
            let wrongMethod = try await api.send(.patch, "/v3/users")
            #expect(wrongMethod.status == 405)
            #expect(try wrongMethod.code == 400930)
            #expect(wrongMethod.headers[.allow] == "GET, POST")
            let wrongMethodWithCapture = try await api.send(.post, "/v3/users/someone")
            #expect(wrongMethodWithCapture.status == 405)
        }
    }

    /// Issue 50.5: no browser reads a JSON answer, or an error, as anything else (a user's text
    /// in it could otherwise be sniffed as HTML).
    @Test func jsonAnswersAndErrorsAreNotSniffed() async throws {
        try await TestServer.withAPI { api in
            let nosniff = HTTPField.Name("X-Content-Type-Options")!
            let answers = [
                try await api.get("/v3/users?limit=1"), try await api.get("/v3/nothing_here"), try await api.get("/health"),
                try await api.raw(.post, "/v3/users", body: "{"), try await api.get("/v3/users", as: .apiToken("wrong"))
            ]
            for answer in answers {
                #expect(answer.headers[nosniff] == "nosniff", "\(answer.status) \(answer.text)")
                #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test func malformedJSONIs400403() async throws {
        try await TestServer.withAPI { api in
            let response = try await api.raw(.post, "/v3/users", body: #"{"user_id": "x", "#)
            #expect(response.status == 400)
            #expect(try response.code == 400403)
            let notObject = try await api.raw(.post, "/v3/users", body: #"["a"]"#)
            #expect(notObject.status == 400)
            #expect(try notObject.code == 400103)
        }
    }

    @Test func nonJSONContentTypeIs415() async throws {
        try await TestServer.withAPI { api in
            let response = try await api.raw(.post, "/v3/users", body: "user_id=x", contentType: "application/x-www-form-urlencoded")
            #expect(response.status == 415)
            #expect(try response.code == 400111)
        }
    }

    @Test func bodyOverTheLimitIs413AndCreatesNothing() async throws {
        let userID = uniqueID("big")
        try await TestServer.withAPI({ $0.limits.jsonBodyBytes = 4096 }) { api in
            let padding = String(repeating: "x", count: 5000)
            let response = try await api.post("/v3/users", ["user_id": userID, "nickname": "n", "padding": padding])
            #expect(response.status == 413)
            #expect(try response.code == 400110)
            #expect(try await api.get("/v3/users/\(userID)").status == 404)
        }
    }

    @Test func requestIDIsEchoedAndGeneratedOtherwise() async throws {
        try await TestServer.withAPI { api in
            let given = try await api.raw(.get, "/health", headers: [.init("X-Request-Id")!: "trace-123"], as: .none)
            #expect(given.headers[.init("X-Request-Id")!] == "trace-123")
            let generated = try await api.get("/health", as: .none)
            #expect(generated.headers[.init("X-Request-Id")!]?.isEmpty == false)
        }
    }

    @Test func openAPIDescribesExactlyTheServedRoutes() async throws {
        let routes = try await TestServer.routes().joined(separator: "\n")
        let routesFile = FileManager.default.temporaryDirectory.appendingPathComponent(uniqueID("routes") + ".txt")
        try routes.write(to: routesFile, atomically: true, encoding: .utf8)
        let ended = try runProgram(
            "/usr/bin/env",
            [
                "python3", TestServer.packageRoot.appendingPathComponent("scripts/check-openapi.py").path,
                TestServer.packageRoot.appendingPathComponent("openapi.yaml").path, routesFile.path
            ], capture: true)
        #expect(ended.termination == .exited(0), "\(ended.output)")
    }
}

/// API.md §1.5: a database that cannot be reached is 503/500902, never a crash or a hang.
@Suite struct UnavailableDatabaseTests {
    @Test func unreachableDatabaseAnswers503() async throws {
        let config = try TestServer.config { $0.databaseURL = "host=/nonexistent-parley-socket port=1 dbname=none connect_timeout=2" }
        let container = try ParleyContainer.Container.live(config: config, logger: TestServer.logger)
        let app = buildApplication(container: container)
        try await app.test(.live) { client in
            let api = API(client: client)
            let ready = try await api.get("/ready", as: .none)
            #expect(ready.status == 503)
            #expect(try ready.code == 500902)
            let users = try await api.get("/v3/users")
            #expect(users.status == 503)
            #expect(try users.code == 500902)
            #expect(try await api.get("/health", as: .none).status == 200)
        }
    }
}

/// U+0000 cannot be stored in PostgreSQL text: it is refused wherever the server reads it (fields
/// it ignores are not read: SpecConformanceTests).
@Suite struct NULInputTests {
    @Test func nulInBodyKeysValuesPathAndQueryIs400111() async throws {
        let userID = uniqueID("nul")
        try await TestServer.withAPI { api in
            try await api.createUser(userID)
            let inValue = try await api.put("/v3/users/\(userID)/metadata", ["metadata": ["k": "a\u{0}b"]])
            #expect(inValue.status == 400)
            #expect(try inValue.code == 400111)
            let inKey = try await api.put("/v3/users/\(userID)/metadata", ["metadata": ["a\u{0}b": "v"]])
            #expect(try inKey.code == 400111)
            let inList = try await api.post("/v3/group_channels", ["user_ids": ["x\u{0}"]])
            #expect(try inList.code == 400111)
            #expect(try await api.get("/v3/users?nickname_startswith=a%00b").code == 400111)
            #expect(try await api.get("/v3/users/a%00b").code == 400111)
            #expect(try await api.get("/v3/users/\(userID)/metadata").decode([String: String].self).isEmpty)
        }
    }
}
