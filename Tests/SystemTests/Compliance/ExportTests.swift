import Foundation
import ParleyContainer
import ParleyCore
import Testing

/// Data exports (API.md §14.2): what was asked, as JSON or CSV, through an expiring link.
@Suite struct ExportTests: GDPRFixtures {
    @Test func messagesAreExportedAsCsvAndJsonWithTheFiltersAsked() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-export-\(UUID())").path
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                Self.runJobs(&config, files: files)
                config.jobs.batchSize = 1
            }) { api in
                let start = Int(Date.now.timeIntervalSince1970 * 1000) - 1
                let cast = try await api.cast("export", 2)
                let (first, second) = (
                    try await api.createChannel(["user_ids": cast.ids]), try await api.createChannel(["user_ids": cast.ids])
                )
                let texts = ["plain", "a, comma", "a \"quote\"", "two\nlines", "=HYPERLINK(\"http://x\")", "-5", "日本語"]
                for (index, text) in texts.enumerated() {
                    let sent = try await api.post("/v3/group_channels/\(first)/messages", ["message": text], as: cast.session(index % 2))
                    #expect(sent.status == 201)
                }
                let gone = try await api.post("/v3/group_channels/\(second)/messages", ["message": "deleted"], as: cast.session(0))
                #expect(
                    try await api.delete("/v3/group_channels/\(second)/messages/\(gone.rawJSON["message_id"] as? Int ?? 0)").status == 200)
                #expect(
                    try await api.post("/v3/group_channels/\(second)/messages", ["message": "elsewhere"], as: cast.session(1)).status == 201
                )
                let end = Int(Date.now.timeIntervalSince1970 * 1000) + 1

                let csv = try await Self.export(
                    api, "messages", ["start_ts": start, "end_ts": end, "format": "csv", "channel_urls": [first]])
                #expect(csv.status == 200 && csv["Content-Type"] == "text/csv")
                let rows = Self.csvRows(String(decoding: csv.bytes, as: UTF8.self))
                #expect(rows.first == ExportKind.messages.columns)
                let column = try #require(rows.first?.firstIndex(of: "message"))
                let formulaSafe = texts.map { $0.hasPrefix("=") ? "'" + $0 : $0 }
                #expect(rows.dropFirst().map { $0[column] } == formulaSafe, "\(rows)")

                let json = try await Self.export(api, "messages", ["start_ts": start, "end_ts": end, "sender_ids": [cast[1]]])
                let objects = (try? JSONSerialization.jsonObject(with: Data(json.bytes))) as? [[String: Any]] ?? []
                #expect(objects.compactMap { $0["message"] as? String } == ["a, comma", "two\nlines", "-5", "elsewhere"], "\(objects)")
                #expect(objects.allSatisfy { $0["user_id"] as? String == cast[1] })

                let none = try await Self.export(api, "messages", ["start_ts": 0, "end_ts": start])
                #expect(String(decoding: none.bytes, as: UTF8.self) == "[]\n")
                let users = try await Self.export(api, "users", ["start_ts": start, "end_ts": end, "user_ids": [cast[0]]])
                let userObjects = (try? JSONSerialization.jsonObject(with: Data(users.bytes))) as? [[String: Any]] ?? []
                #expect(userObjects.map { $0["user_id"] as? String } == [cast[0]])
                let channels = try await Self.export(
                    api, "channels", ["start_ts": start, "end_ts": end, "format": "csv", "csv_delimiter": ";"])
                #expect(
                    Self.csvRows(String(decoding: channels.bytes, as: UTF8.self), delimiter: ";").dropFirst().map { $0[0] } == [
                        first, second
                    ])
            }
        }
    }

    @Test func badExportsAreRefusedAndLinksHoldOnlyAsIssued() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-export-\(UUID())").path
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({
                Self.runJobs(&$0, files: files)
                $0.databaseURL = database
            }) { api in
                let cast = try await api.cast("exportbad", 1)
                #expect(try await api.post("/v3/export/logs", ["start_ts": 0, "end_ts": 1]).code == 400111)
                #expect(try await api.post("/v3/export/messages", ["end_ts": 1]).code == 400105)
                #expect(try await api.post("/v3/export/messages", ["start_ts": 5, "end_ts": 1]).code == 400111)
                #expect(try await api.post("/v3/export/messages", ["start_ts": 0, "end_ts": 1, "format": "xml"]).code == 400111)
                #expect(try await api.post("/v3/export/messages", ["start_ts": 0, "end_ts": 1, "csv_delimiter": "\""]).code == 400111)
                #expect(try await api.post("/v3/export/messages", ["start_ts": "0", "end_ts": 1]).code == 400101)
                #expect(try await api.post("/v3/export/messages", ["start_ts": 0, "end_ts": 1], as: cast.session(0)).status == 403)
                #expect(try await api.get("/v3/export/messages/nothing").status == 404)
                let made = try await api.post("/v3/export/users", ["start_ts": 0, "end_ts": 1])
                let id = made.rawJSON["request_id"] as? String ?? ""
                #expect(try await api.get("/v3/export/messages/\(id)").status == 404, "an export of users is not one of messages")
                let done = try await Self.finished(api, "users", id)
                let link = try #require((done["file"] as? [String: Any])?["url"] as? String, "\(done)")
                #expect(try await api.download(link).status == 200)
                #expect(try await api.download(link.replacingOccurrences(of: "/users/", with: "/messages/")).status == 404)
                #expect(try await api.download(link.replacingOccurrences(of: "expires_at=", with: "expires_at=9")).status == 404)
                let listed = try await api.get("/v3/export/users").rawJSON["exported_data"] as? [[String: Any]] ?? []
                #expect(listed.map { $0["request_id"] as? String } == [id])
            }
        }
    }

    /// Registers an export, waits for it and downloads its file.
    static func export(_ api: API, _ kind: String, _ body: [String: Any]) async throws -> BinaryResponse {
        let made = try await api.post("/v3/export/\(kind)", body)
        #expect(made.status == 200, "\(made.text)")
        let done = try await finished(api, kind, made.rawJSON["request_id"] as? String ?? "")
        let link = try #require((done["file"] as? [String: Any])?["url"] as? String, "\(done)")
        return try await api.download(link)
    }

    static func finished(_ api: API, _ kind: String, _ id: String) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        _ = try await eventually(within: .seconds(60), every: .milliseconds(50)) {
            last = try await api.get("/v3/export/\(kind)/\(id)").rawJSON
            return last["status"] as? String == "done"
        }
        return last
    }

    /// RFC 4180 rows.
    static func csvRows(_ text: String, delimiter: Character = ",") -> [[String]] {
        var (rows, row, field, quoted) = ([[String]](), [String](), "", false)
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == delimiter {
                row.append(field)
                field = ""
            } else if character == "\r\n" || character == "\n" {
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            } else {
                field.append(character)
            }
        }
        return rows
    }
}
