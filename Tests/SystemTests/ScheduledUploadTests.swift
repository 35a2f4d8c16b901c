import Foundation
import ParleyContainer
import Testing

/// Scheduled uploads (API.md §13.3 with §5.1's form): the file is stored and its thumbnails made
/// when the message is scheduled, served by no download until the message is sent, kept by the
/// file sweeper while pending, and deleted when the message is canceled or fails.
@Suite struct ScheduledUploadTests: FileFixtures {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
    }

    static func scheduleUpload(
        _ api: API, _ channel: String, _ fields: [String: String], _ bytes: [UInt8], as credential: Credential
    ) async throws -> APIResponse {
        try await api.upload(
            channel, fields, file: FormFile(fileName: "cat.jpg", contentType: "image/jpeg", bytes: bytes), as: credential,
            resource: "scheduled_messages")
    }

    @Test func theFileIsStoredNowAndSentWithItsMessage() async throws {
        let folder = Self.folder()
        try await TestServer.withAPI({
            ScheduledMessageTests.prompt(&$0)
            $0.fileDirectory = folder
        }) { api in
            let cast = try await api.cast("schu", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let image = try Media.jpeg(64, 48)
            let fields = ["scheduled_at": "\(ScheduledMessageTests.now + 3_600_000)", "thumbnail1": "32x32", "custom_type": "photo"]
            let created = try await Self.scheduleUpload(api, channel, fields, image, as: cast.session(0))
            #expect(created.status == 201, "\(created.text)")
            let scheduled = created.rawJSON
            #expect(scheduled["status"] as? String == "pending")
            #expect(scheduled["type"] as? String == "FILE")
            #expect(scheduled["custom_type"] as? String == "photo")
            let file = scheduled["file"] as? [String: Any]
            #expect(file?["name"] as? String == "cat.jpg")
            #expect(file?["type"] as? String == "image/jpeg")
            #expect(file?["size"] as? Int == image.count)
            #expect((scheduled["thumbnails"] as? [Any])?.count == 1)
            // Stored now (the file and its thumbnail); no download serves it before the send.
            #expect(Self.files(in: folder).count == 2)
            let pendingLink = try #require(file?["url"] as? String)
            #expect(try await api.download(pendingLink).status == 404)

            let id = scheduled["scheduled_message_id"] as? Int ?? -1
            try ScheduledMessageTests.makeDue([id])
            let sent = try await ScheduledMessageTests.settled(api, channel, id)
            #expect(sent["status"] as? String == "sent", "\(sent)")
            let shown = try await api.get(
                "/v3/group_channels/\(channel)/messages/\(sent["message_id"] as? Int ?? 0)", as: cast.session(1))
            let message = try shown.decode(MessageBody.self)
            #expect(message.type == "FILE")
            #expect(message.user?.userID == cast[0])
            #expect(message.thumbnails?.count == 1)
            let download = try await api.download(try #require(message.file?.url))
            #expect(download.status == 200)
            #expect(download.bytes == image)
            #expect(Self.files(in: folder).count == 2, "the message holds the same stored file")
        }
    }

    @Test func aCanceledOrFailedUploadLeavesNoFile() async throws {
        let folder = Self.folder()
        try await TestServer.withAPI({
            ScheduledMessageTests.prompt(&$0)
            $0.fileDirectory = folder
        }) { api in
            let cast = try await api.cast("schux", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let later = ["scheduled_at": "\(ScheduledMessageTests.now + 3_600_000)", "thumbnail1": "16x16"]
            let first = try await Self.scheduleUpload(api, channel, later, try Media.jpeg(40, 30), as: cast.session(0))
            #expect(first.status == 201, "\(first.text)")
            #expect(Self.files(in: folder).count == 2)
            let base = "/v3/group_channels/\(channel)/scheduled_messages"
            let canceled = try await api.delete("\(base)/\(first.rawJSON["scheduled_message_id"] as? Int ?? -1)", as: cast.session(0))
            #expect(canceled.rawJSON["status"] as? String == "canceled", "\(canceled.text)")
            #expect(Self.files(in: folder).isEmpty)

            let second = try await Self.scheduleUpload(api, channel, later, Media.random(500), as: cast.session(0))
            let id = second.rawJSON["scheduled_message_id"] as? Int ?? -1
            #expect(try await api.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[0]]]).status == 200)
            // Sent now by this server (at its time, any server on the database could take it,
            // and each test server stores files in a folder of its own).
            #expect(try await api.post("\(base)/\(id)/send_now").code == 400108)
            let failed = try await api.get("\(base)/\(id)").rawJSON
            #expect(failed["status"] as? String == "failed", "\(failed)")
            #expect(failed["failure_code"] as? Int == 400108)
            #expect(Self.files(in: folder).isEmpty)
        }
    }

    @Test func badScheduledUploadsAreRefusedAndStoreNothing() async throws {
        let folder = Self.folder()
        try await TestServer.withAPI({ $0.fileDirectory = folder }) { api in
            let cast = try await api.cast("schub", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let inTenMinutes = "\(ScheduledMessageTests.now + 600_000)"
            let refusals: [([String: String], Credential, Int)] = [
                ([:], cast.session(0), 400105),
                (["scheduled_at": "noon"], cast.session(0), 400101),
                (["scheduled_at": "\(ScheduledMessageTests.now + 60_000)"], cast.session(0), 400111),
                (["scheduled_at": inTenMinutes, "dedup_id": "d"], cast.session(0), 400111),
                (["scheduled_at": inTenMinutes, "user_id": cast[1]], cast.session(0), 400108),
                (["scheduled_at": inTenMinutes], cast.session(2), 400201),
                (["scheduled_at": inTenMinutes, "thumbnail4": "8x8"], cast.session(0), 400111)
            ]
            for (fields, credential, code) in refusals {
                let refused = try await Self.scheduleUpload(api, channel, fields, Media.random(300), as: credential)
                #expect(try refused.code == code, "\(fields): \(refused.text)")
            }
            #expect(try await api.get("/v3/scheduled_messages/count?channel_url=\(channel)").rawJSON["count"] as? Int == 0)
            try await eventually(within: .seconds(5)) { Self.files(in: folder).isEmpty }
            #expect(Self.files(in: folder).isEmpty)
        }
    }

    /// On a database of its own: the sweep of stored files is a recurring job, which the second
    /// server schedules as it starts and which no other test's server may take.
    @Test func theSweeperKeepsAPendingUpload() async throws {
        try await OwnDatabase.with { database in try await Self.sweepKeepsAPendingUpload(database) }
    }

    static func sweepKeepsAPendingUpload(_ database: String) async throws {
        let folder = Self.folder()
        let fileKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let configure: @Sendable (inout Config) -> Void = {
            $0.databaseURL = database
            $0.fileDirectory = folder
            $0.fileKey = fileKey
        }
        let pending = PendingBox()
        try await TestServer.withAPI(configure) { api in
            let cast = try await api.cast("schus", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let fields = ["scheduled_at": "\(ScheduledMessageTests.now + 3_600_000)"]
            let created = try await Self.scheduleUpload(api, channel, fields, Media.random(700), as: cast.session(0))
            #expect(created.status == 201, "\(created.text)")
            pending.set(channel, created.rawJSON["scheduled_message_id"] as? Int ?? -1, cast.session(0))
        }
        // Old enough for the sweeper, as is a leftover of a crash beside it.
        let manager = FileManager.default
        let stored = Self.files(in: folder)
        #expect(stored.count == 1)
        try manager.createDirectory(atPath: folder + "/cd", withIntermediateDirectories: true)
        let orphan = "cd/cd" + String(repeating: "3", count: 30)
        #expect(manager.createFile(atPath: folder + "/" + orphan, contents: Data("x".utf8)))
        for path in stored + [orphan] {
            try manager.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: folder + "/" + path)
        }
        // A second server sweeps as it starts (jobs on): the orphan goes, the pending upload stays.
        try await TestServer.withAPI({
            configure(&$0)
            $0.jobs.enabled = true
        }) { api in
            try await eventually(within: .seconds(5)) { !manager.fileExists(atPath: folder + "/" + orphan) }
            #expect(Self.files(in: folder) == stored)
            let (channel, id, sender) = try #require(pending.value)
            let canceled = try await api.delete("/v3/group_channels/\(channel)/scheduled_messages/\(id)", as: sender)
            #expect(canceled.rawJSON["status"] as? String == "canceled")
            #expect(Self.files(in: folder).isEmpty)
        }
    }
}

/// What the first server scheduled, for the second.
private final class PendingBox: @unchecked Sendable {
    private(set) var value: (channel: String, id: Int, sender: Credential)?

    func set(_ channel: String, _ id: Int, _ sender: Credential) {
        value = (channel, id, sender)
    }
}
