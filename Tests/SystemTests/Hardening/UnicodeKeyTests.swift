import Foundation
import Postgres
import Testing

/// Issue 29.15a: keys that differ only by Unicode normalization are one key, stored once in NFC:
/// metadata of users and of both kinds of channel, and reactions; migration 0020 merges the
/// spellings stored before.
@Suite struct UnicodeKeyTests {
    private static let composed = "\u{E9}"
    private static let decomposed = "e\u{301}"
    private static let composedInPath = "%C3%A9"
    private static let decomposedInPath = "e%CC%81"

    private func database() throws -> PostgresConnection {
        try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
    }

    private func count(_ table: String, _ column: String, _ owner: String) throws -> Int64 {
        try database().query("SELECT count(*) AS n FROM \(table) WHERE \(column) = $1", [owner])[0].decode("n", as: Int64.self)
    }

    @Test func metadataKeysSpelledTwoWaysAreOneRow() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("nfc", 1)
            let group = try await api.createChannel(["user_ids": [cast[0]]])
            let open = uniqueID("nfc-open")
            #expect(try await api.post("/v3/open_channels", ["channel_url": open]).status == 201)
            for (path, table, column, owner) in [
                ("/v3/users/\(cast[0])/metadata", "user_metadata", "user_id", cast[0]),
                ("/v3/group_channels/\(group)/metadata", "group_channel_metadata", "channel_url", group),
                ("/v3/open_channels/\(open)/metadata", "open_channel_metadata", "channel_url", open)
            ] {
                #expect(try await api.post(path, ["metadata": [Self.decomposed: "1"]]).status == 201, "\(path)")
                #expect(try await api.put(path + "/" + Self.composedInPath, ["value": "2"]).status == 200, "\(path)")
                #expect(try await api.put(path, ["metadata": [Self.composed: "3"]]).status == 200, "\(path)")
                let all = try await api.get(path).rawJSON
                #expect(all.count == 1 && all.keys.first.map { Array($0.unicodeScalars) } == Array(Self.composed.unicodeScalars))
                #expect(all[Self.composed] as? String == "3", "\(path): \(all)")
                #expect(try count(table, column, owner) == 1, "\(path): stored once")
                #expect(try await api.get(path + "/" + Self.decomposedInPath).rawJSON[Self.composed] as? String == "3", "\(path)")
                #expect(try await api.delete(path + "/" + Self.decomposedInPath).status == 200, "\(path)")
                #expect(try count(table, column, owner) == 0, "\(path): deleted by either spelling")
            }
        }
    }

    @Test func aReactionSpelledTwoWaysIsOne() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("nfc-react", 1)
            let url = try await api.createChannel(["user_ids": [cast[0]]])
            let sent = try await api.post("/v3/group_channels/\(url)/messages", ["message": "hi"], as: cast.session(0))
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            let path = "/v3/group_channels/\(url)/messages/\(id)/reactions"
            #expect(try await api.post(path, ["reaction": Self.decomposed], as: cast.session(0)).status == 200)
            #expect(try await api.post(path, ["reaction": Self.composed], as: cast.session(0)).status == 200)
            let reactions = try #require(try await api.get(path, as: cast.session(0)).rawJSON["reactions"] as? [[String: Any]])
            #expect(reactions.count == 1, "\(reactions)")
            #expect(try await api.delete("\(path)?reaction=\(Self.decomposedInPath)", as: cast.session(0)).status == 200)
            #expect(try count("message_reactions", "message_id", String(id)) == 0)
        }
    }

    /// A meta array is a list: a key given twice in one request, also in two spellings, is one
    /// entry with the values of both (it was stored twice).
    @Test func aMetaArrayKeyGivenTwiceIsOneEntry() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("nfc-meta", 1)
            let url = try await api.createChannel(["user_ids": [cast[0]]])
            for keys in [["a", "a"], [Self.composed, Self.decomposed]] {
                let body: [String: Any] = [
                    "message": "hi", "sorted_metaarray": [["key": keys[0], "value": ["1"]], ["key": keys[1], "value": ["1", "2"]]]
                ]
                let sent = try await api.post("/v3/group_channels/\(url)/messages", body, as: cast.session(0))
                #expect(sent.status == 201, "\(sent.text)")
                let metaarray = sent.rawJSON["sorted_metaarray"] as? [[String: Any]] ?? []
                #expect(metaarray.count == 1 && metaarray.first?["value"] as? [String] == ["1", "2"], "\(keys): \(metaarray)")
            }
        }
    }

    /// Rows stored before keys were normalized: migration 0020 (run here once more; it changes
    /// nothing the second time) keeps the NFC spelling's row, or the first by bytes.
    @Test func theMigrationMergesStoredSpellings() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("nfc-old", 2)
            let database = try database()
            let (first, second) = (cast[0], cast[1])
            for (user, key, value) in [
                (first, Self.decomposed, "old"), (first, Self.composed, "kept"), (second, Self.decomposed, "only"),
                // Two spellings of Å, neither NFC: "A" + U+030A, and U+212B ANGSTROM SIGN.
                (second, "A\u{30A}", "x"), (second, "\u{212B}", "y")
            ] {
                _ = try database.query("INSERT INTO user_metadata (user_id, key, value) VALUES ($1, $2, $3)", [user, key, value])
            }
            let migration = TestServer.packageRoot.appendingPathComponent("migrations/0020_nfc_keys.sql")
            _ = try database.execute(try String(contentsOf: migration, encoding: .utf8))
            let rows = try database.query(
                "SELECT user_id, key, value FROM user_metadata WHERE user_id = ANY($1::text[])", [[first, second]])
            let stored = try Set(
                rows.map { row in
                    let key = try row.decode("key", as: String.self).unicodeScalars.map { String($0.value, radix: 16) }.joined(
                        separator: " ")
                    return "\(try row.decode("user_id", as: String.self))|\(key)|\(try row.decode("value", as: String.self))"
                })
            #expect(stored == ["\(first)|e9|kept", "\(second)|e9|only", "\(second)|c5|x"], "\(stored)")
            #expect(try await api.get("/v3/users/\(first)/metadata").rawJSON[Self.composed] as? String == "kept")
            #expect(try await api.get("/v3/users/\(second)/metadata").rawJSON.count == 2)
        }
    }
}
