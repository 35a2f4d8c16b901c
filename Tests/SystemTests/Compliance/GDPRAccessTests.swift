import Foundation
import ParleyContainer
import Testing

/// GDPR access requests (API.md §14.1): an archive of the user's data, downloadable through an
/// expiring signed link, stored encrypted.
@Suite struct GDPRAccessTests: FileFixtures, GDPRFixtures {
    @Test func anAccessRequestArchivesTheUsersDataForTheHolderOfItsLink() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-gdpr-\(UUID())").path
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                Self.runJobs(&config, files: files)
                config.jobs.batchSize = 2
            }) { api in
                let cast = try await api.cast("gdpraccess", 2)
                let ada = cast[0]
                #expect(try await api.put("/v3/users/\(ada)", ["nickname": "Ada Lovelace"]).status == 200)
                #expect(try await api.post("/v3/users/\(ada)/metadata", ["metadata": ["city": "London"]]).status == 201)
                let channel = try await api.createChannel(["user_ids": cast.ids, "name": "Engines"])
                let path = "/v3/group_channels/\(channel)/messages"
                var sent: [String] = []
                for text in ["first", "second", "third"] {
                    #expect(try await api.post(path, ["message": text, "data": "d-\(text)"], as: cast.session(0)).status == 201)
                    sent.append(text)
                }
                let gone = try await api.post(path, ["message": "deleted"], as: cast.session(0))
                #expect(try await api.delete("\(path)/\(gone.rawJSON["message_id"] as? Int ?? 0)", as: cast.session(0)).status == 200)
                // Not a multiple of three: the streamed base64 must still join into one.
                let bytes = Media.random(200_003)
                let upload = try await api.upload(channel, file: FormFile(fileName: "notes.bin", bytes: bytes), as: cast.session(0))
                #expect(upload.status == 201, "\(upload.text)")
                #expect(try await api.post(path, ["message": "not hers"], as: cast.session(1)).status == 201)

                let made = try await api.post("/v3/privacy/gdpr", ["action": "access", "user_id": ada])
                #expect(made.status == 200, "\(made.text)")
                let done = try await Self.finished(api, made.rawJSON["request_id"] as? String ?? "")
                #expect(done["status"] as? String == "done", "\(done)")
                let link = try #require((done["files"] as? [String: Any])?["url"] as? String, "\(done)")
                let expiresAt = try #require((done["files"] as? [String: Any])?["expires_at"] as? Int)
                #expect(expiresAt > Int(Date.now.timeIntervalSince1970 * 1000) + 6 * 24 * 3_600_000)

                // Anyone with the link downloads it; a changed signature or expiry is refused.
                let archive = try await api.download(link)
                #expect(archive.status == 200 && archive["Content-Type"] == "application/x-ndjson")
                #expect(try await api.download(link.replacingOccurrences(of: "signature=", with: "signature=A")).status == 404)
                #expect(try await api.download(link.replacingOccurrences(of: "expires_at=", with: "expires_at=1")).status == 404)
                let records = String(decoding: archive.bytes, as: UTF8.self).split(separator: "\n").map {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
                }
                func data(_ type: String) -> [[String: Any]] {
                    records.filter { $0["type"] as? String == type }.compactMap { $0["data"] as? [String: Any] }
                }
                #expect(data("user").first?["nickname"] as? String == "Ada Lovelace")
                #expect((data("user").first?["metadata"] as? [String: String]) == ["city": "London"])
                #expect(data("channel_membership").map { $0["channel_url"] as? String } == [channel])
                #expect(
                    data("message").compactMap { $0["message"] as? String } == sent + [""],
                    "her three texts and her file, not the deleted one")
                let file = try #require(data("file").first)
                #expect(Data(base64Encoded: file["content_base64"] as? String ?? "") == Data(bytes))
                // Stored encrypted: the plaintext is nowhere in the storage.
                let stored = Self.files(in: files).map { (try? Data(contentsOf: URL(fileURLWithPath: files + "/" + $0))) ?? Data() }
                #expect(!stored.contains { $0.range(of: Data("Ada Lovelace".utf8)) != nil })
            }
        }
    }
}
