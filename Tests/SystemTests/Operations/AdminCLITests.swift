import Foundation
import Testing

/// Issue 17, point 6: the `parley` admin commands, run as the operator runs them (the built
/// executable), against the database a running server uses: they go through the services, so
/// the server's clients see their changes (a revoked token's socket closes, a frozen channel's
/// members hear of it).
@Suite struct AdminCLITests: WebhookFixtures {
    static let fileKey = Data((0..<32).map { UInt8($0) }).base64EncodedString()

    /// Runs `parley arguments` on `database` (the common test database by default).
    static func parley(
        _ arguments: [String], database: String? = nil, fileKey: String = fileKey, fileDirectory: String? = nil,
        environment extra: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("parley").path
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = try database ?? TestServer.databaseURL
        environment["PARLEY_API_TOKEN"] = TestServer.apiToken
        environment["PARLEY_FILE_KEY"] = fileKey
        environment["PARLEY_MIGRATIONS_DIR"] = TestServer.packageRoot.appendingPathComponent("migrations").path
        environment["PARLEY_FILE_DIR"] =
            fileDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-\(UUID())").path
        environment.merge(extra) { _, new in new }
        let (termination, output) = try runProgram(binary, arguments, environment: environment, capture: true)
        guard case .exited(let status) = termination else { throw TestFailure("parley \(arguments) ended by \(termination)") }
        return (status, output)
    }

    static func token(in output: String) throws -> String {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("session token: ") }),
            let token = line.dropFirst("session token: ".count).split(separator: " ").first
        else { throw TestFailure("no token in \(output)") }
        return String(token)
    }

    @Test func usersAndTokensActOnARunningServer() async throws {
        try await TestServer.withAPI { api in
            let userID = uniqueID("cli")
            let created = try Self.parley(["user", "create", userID, "--nickname", "Carol", "--issue-token"])
            #expect(created.status == 0, "\(created.output)")
            let token = try Self.token(in: created.output)
            let user = try await api.get("/v3/users/\(userID)", as: .session(token))
            #expect(user.status == 200)
            #expect(user.rawJSON["nickname"] as? String == "Carol")

            let again = try Self.parley(["user", "create", userID, "--nickname", "Carol"])
            #expect(again.status == 1)
            #expect(again.output.contains("already exists") && again.output.contains("400202"), "\(again.output)")
            let badID = try Self.parley(["user", "create", String(repeating: "x", count: 200)])
            #expect(badID.status == 1, "\(badID.output)")
            #expect(try Self.parley(["token", "issue", userID, "--expires-in-hours", "0"]).status == 64)

            // The server's socket of that token closes when the CLI revokes it.
            let socket = try await api.events(token)
            _ = try await socket.hello()
            let revoked = try Self.parley(["token", "revoke", userID])
            #expect(revoked.status == 0, "\(revoked.output)")
            #expect(try await socket.closed() == 4001)
            #expect(try await api.get("/v3/users/\(userID)", as: .session(token)).status == 401)

            let issued = try Self.parley(["token", "issue", userID, "--expires-in-hours", "2"])
            #expect(issued.status == 0, "\(issued.output)")
            let fresh = try Self.token(in: issued.output)
            #expect(try await api.get("/v3/users/\(userID)", as: .session(fresh)).status == 200)

            let deactivated = try Self.parley(["user", "deactivate", userID])
            #expect(deactivated.status == 0, "\(deactivated.output)")
            #expect(try await api.get("/v3/users/\(userID)").rawJSON["is_active"] as? Bool == false)
            #expect(try Self.parley(["user", "deactivate", "nobody-\(UUID())"]).status == 1)
        }
    }

    @Test func channelsAndReports() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let cast = try await api.cast("clich", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "Ops room"])
                let listed = try Self.parley(["channel", "list"], database: database)
                #expect(listed.status == 0)
                let rows = listed.output.split(separator: "\n")
                #expect(rows.count == 2, "\(listed.output)")
                #expect(rows.last?.contains(channel) == true && rows.last?.contains("Ops room") == true)
                #expect(try Self.parley(["channel", "list", "--limit", "0"], database: database).status == 64)

                let member = try await api.events(cast.tokens[cast[1]]!)
                _ = try await member.hello()
                let frozen = try Self.parley(["channel", "freeze", channel], database: database)
                #expect(frozen.status == 0 && frozen.output.contains("is frozen"), "\(frozen.output)")
                _ = try await member.waitForEvent("channel_frozen")
                #expect(try await api.get("/v3/group_channels/\(channel)").rawJSON["freeze"] as? Bool == true)
                #expect(try Self.parley(["channel", "freeze", channel, "--unfreeze"], database: database).status == 0)
                _ = try await member.waitForEvent("channel_unfrozen")
                #expect(try Self.parley(["channel", "freeze", "no-such-channel"], database: database).status == 1)
                member.close()

                let filed = try await api.post(
                    "/v3/report/users/\(cast[0])", ["report_category": "harassing", "report_description": "rude"], as: cast.session(1))
                #expect(filed.status == 201, "\(filed.text)")
                let reportID = try #require(filed.rawJSON["report_id"] as? Int)
                let open = try Self.parley(["report", "list", "--status", "open"], database: database)
                #expect(open.status == 0)
                let row = open.output.split(separator: "\n").last.map { $0.split(separator: " ").map(String.init) } ?? []
                #expect(Array(row.prefix(4)) == [String(reportID), "open", "user", "harassing"], "\(open.output)")
                #expect(open.output.contains("user \(cast[0])"), "\(open.output)")
                let resolved = try Self.parley(["report", "resolve", String(reportID), "--resolution", "warned"], database: database)
                #expect(resolved.status == 0, "\(resolved.output)")
                let after = try await api.get("/v3/report/users/\(cast[0])")
                let entry = try #require((after.rawJSON["report_logs"] as? [[String: Any]])?.first)
                #expect(entry["status"] as? String == "resolved")
                #expect(
                    try Self.parley(["report", "list", "--status", "open"], database: database).output.split(separator: "\n").count == 1)
                #expect(try Self.parley(["report", "list", "--status", "nonsense"], database: database).status == 64)
            }
        }
    }

    @Test func webhookDeliveriesAreListedAndRedelivered() async throws {
        try await Self.withWebhook(events: ["group_channel:message_send"]) { api, receiver, database in
            let cast = try await api.cast("clihook", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "hooked"], as: cast.session(0))
            #expect(try await eventually { receiver.received(about: channel).count == 1 })
            var listed: (status: Int32, output: String) = (0, "")
            #expect(
                try await eventually(within: .seconds(30)) {
                    listed = try Self.parley(["webhook", "list", "--status", "delivered"], database: database)
                    return listed.output.split(separator: "\n").count == 2
                })
            let id = try #require(listed.output.split(separator: "\n").last?.split(separator: " ").first.map(String.init))
            let redelivered = try Self.parley(["webhook", "redeliver", id], database: database)
            #expect(redelivered.status == 0, "\(redelivered.output)")
            #expect(try await eventually(within: .seconds(30)) { receiver.received(about: channel).count == 2 })
            let missing = try Self.parley(["webhook", "redeliver", "999999"], database: database)
            #expect(missing.status == 1 && missing.output.contains("400201"), "\(missing.output)")
        }
    }

    @Test func doctorSaysWhatToFix() async throws {
        try await OwnDatabase.with { database in
            let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-doctor-\(UUID())").path
            let healthy = try Self.parley(["doctor"], database: database, fileDirectory: files)
            #expect(healthy.status == 0, "\(healthy.output)")
            for line in ["[ok  ] database", "[ok  ] migrations", "[ok  ] libvips", "[ok  ] file key", "Nothing to fix."] {
                #expect(healthy.output.contains(line), "\(line) missing from \(healthy.output)")
            }
            // A file stored with this key; then the doctor started with another key.
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.fileDirectory = files
                config.fileKey = Array(Data(base64Encoded: Self.fileKey)!)
            }) { api in
                let cast = try await api.cast("doctor", 1)
                let channel = try await api.createChannel(["user_ids": [cast[0]]])
                let sent = try await api.upload(channel, ["user_id": cast[0]], file: FormFile(bytes: Array("stored".utf8)))
                #expect(sent.status == 201, "\(sent.text)")
            }
            let sameKey = try Self.parley(["doctor"], database: database, fileDirectory: files)
            #expect(sameKey.status == 0 && sameKey.output.contains("opens the 1 stored file(s)"), "\(sameKey.output)")
            let otherKey = Data((0..<32).map { UInt8(255 - $0) }).base64EncodedString()
            let wrongKey = try Self.parley(["doctor"], database: database, fileKey: otherKey, fileDirectory: files)
            #expect(wrongKey.status == 1)
            #expect(wrongKey.output.contains("[FAIL] file key: PARLEY_FILE_KEY does not open stored file"), "\(wrongKey.output)")
            // The server refuses to start with it rather than store new files under another key.
            let refused = try Self.parley(
                ["serve"], database: database, fileKey: otherKey, fileDirectory: files, environment: ["PARLEY_PORT": "0"])
            #expect(refused.status != 0)
            #expect(refused.output.contains("PARLEY_FILE_KEY opens none of the 1 stored files tried"), "\(refused.output)")

            let unreachable = try Self.parley(
                ["doctor"], database: database.replacingOccurrences(of: "dbname=", with: "dbname=missing_"), fileDirectory: files)
            #expect(unreachable.status == 1)
            #expect(unreachable.output.contains("[FAIL] database: cannot reach PostgreSQL"), "\(unreachable.output)")
            let unwritable = try Self.parley(["doctor"], database: database, fileDirectory: "/proc/parley-files")
            #expect(unwritable.status == 1 && unwritable.output.contains("[FAIL] file directory"), "\(unwritable.output)")
            let noConfig = try Self.parley(["doctor"], database: database, environment: ["PARLEY_FILE_KEY": "short"])
            #expect(noConfig.status == 1 && noConfig.output.contains("[FAIL] configuration: PARLEY_FILE_KEY"), "\(noConfig.output)")
        }
    }
}
