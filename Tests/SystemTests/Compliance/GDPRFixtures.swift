import Foundation
import ParleyContainer
import Postgres
import Testing

/// What the GDPR suites share: a server that runs jobs, a user who has written everywhere, the
/// wait for a request to finish, and the scan of the whole database.
protocol GDPRFixtures {}

extension GDPRFixtures {
    /// Jobs on, polled often, and files in `files` (a job may run on any server with the same storage).
    static func runJobs(_ config: inout Config, files: String) {
        config.jobs.enabled = true
        config.jobs.pollInterval = .milliseconds(50)
        config.fileDirectory = files
    }

    /// The first member writes `marker` into everything a user can write: messages (text, data,
    /// meta array), a thread reply to `parentID`, an uploaded image with a thumbnail, a poll, a
    /// reaction, a scheduled message, a report and a message deleted before; the second reports
    /// one of hers. Returns how many of her messages stand, and her file.
    static func writeEverywhere(_ api: API, _ cast: Cast, group: String, direct: String, parentID: Int, marker: String)
        async throws -> (messages: Int, fileID: String, fileURL: String)
    {
        let (erin, messages) = (cast.session(0), "/v3/group_channels/\(group)/messages")
        let text = try await api.post(
            messages,
            [
                "message": "secret \(marker) https://\(marker).example/page", "data": "data \(marker)", "custom_type": "t\(marker)",
                "sorted_metaarray": [["key": "k", "value": ["v \(marker)"]]]
            ], as: erin)
        #expect(text.status == 201, "\(text.text)")
        let textID = try #require(text.rawJSON["message_id"] as? Int)
        #expect(try await api.post(messages, ["message": "reply \(marker)", "parent_message_id": parentID], as: erin).status == 201)
        let image = try await api.upload(
            group, ["thumbnail1": "50x50"],
            file: FormFile(fileName: "\(marker).jpg", contentType: "image/jpeg", bytes: try Media.jpeg(120, 90)),
            as: erin)
        let file = try #require(image.rawJSON["file"] as? [String: Any], "\(image.text)")
        let fileURL = try #require(file["url"] as? String)
        let poll = try await api.post("/v3/polls", ["title": "poll \(marker)", "options": ["yes \(marker)", "no"]], as: erin)
        #expect(
            try await api.post(messages, ["message": "vote \(marker)", "poll_id": poll.rawJSON["id"] as? Int ?? 0], as: erin).status == 201)
        let oops = try await api.post(messages, ["message": "oops \(marker)"], as: erin)
        #expect(try await api.delete("\(messages)/\(oops.rawJSON["message_id"] as? Int ?? 0)", as: erin).status == 200)
        #expect(
            try await api.post("\(messages)/\(parentID)/reactions", ["user_id": cast[0], "reaction": "r\(marker)"], as: erin).status == 200)
        let later = Int(Date.now.timeIntervalSince1970 * 1000) + 3_600_000
        #expect(
            try await api.post(
                "/v3/group_channels/\(group)/scheduled_messages", ["message": "later \(marker)", "scheduled_at": later], as: erin
            )
            .status == 201)
        #expect(
            try await api.post(
                "/v3/report/group_channels/\(group)/messages/\(parentID)",
                ["report_category": "spam", "offending_user_id": cast[1], "report_description": "report \(marker)"], as: erin
            ).status == 201)
        #expect(
            try await api.post(
                "/v3/report/group_channels/\(group)/messages/\(textID)", ["report_category": "spam", "offending_user_id": cast[0]],
                as: cast.session(1)
            ).status == 201)
        #expect(try await api.post("/v3/group_channels/\(direct)/messages", ["message": "direct \(marker)"], as: erin).status == 201)
        let fileID = String(fileURL.split(separator: "/").last?.split(separator: "?").first ?? "")
        return (4, fileID, fileURL)
    }

    /// The request once it is over (done, failed or canceled), within a minute.
    static func finished(_ api: API, _ requestID: String) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        _ = try await eventually(within: .seconds(60), every: .milliseconds(100)) {
            last = try await api.get("/v3/privacy/gdpr/\(requestID)").rawJSON
            return ["done", "failed", "canceled"].contains(last["status"] as? String ?? "")
        }
        return last
    }

    /// Every "table: row" of the database whose text holds `needle` (every column of every table).
    static func rowsHolding(_ needle: String, in database: String) throws -> [String] {
        let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
        let tables = try connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
        ).map { try $0.decode("table_name", as: String.self) }
        var found: [String] = []
        for table in tables {
            let rows = try connection.query("SELECT t::text AS row FROM \"\(table)\" t WHERE strpos(t::text, $1) > 0", [needle])
            found += try rows.map { "\(table): \(try $0.decode("row", as: String.self))" }
        }
        return found
    }
}
