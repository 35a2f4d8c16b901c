import Foundation
import HTTPTypes
import Testing

/// API.md §5: uploads stored encrypted, streamed downloads with ranges and validators, external
/// file links, and files going with their message or channel.
@Suite struct FileTests {
    /// Two members and an outsider; a channel of the first two.
    private func setUp(_ api: API, _ prefix: String) async throws -> (users: Cast, url: String) {
        let users = try await api.cast(prefix, 3)
        let url = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
        return (users, url)
    }

    private static func files(in folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }
    }

    @Test func anUploadRoundTripsByteForByteWithItsHeaders() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await setUp(api, "upload")
            let bytes = Media.random(200_000)
            let sent = try await api.upload(
                url, ["custom_type": "doc", "data": "d"],
                file: FormFile(fileName: "report ü.pdf", contentType: "application/pdf", bytes: bytes), as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let message = try sent.decode(MessageBody.self)
            #expect(message.type == "FILE")
            #expect(message.customType == "doc")
            #expect(message.requireAuth == true)
            let file = try #require(message.file)
            #expect(file.name == "report ü.pdf")
            #expect(file.type == "application/pdf")
            #expect(file.size == bytes.count)
            let link = file.url
            #expect(link.hasPrefix("http://files.test/v3/files/") && link.contains("?auth="), "a session caller's link carries their key")
            let download = try await api.download(link)
            #expect(download.status == 200)
            #expect(download.bytes == bytes)
            #expect(download["Content-Type"] == "application/pdf")
            #expect(download["Content-Length"] == "\(bytes.count)")
            #expect(download["Cache-Control"]?.hasPrefix("private") == true)
            #expect(download["Content-Disposition"]?.hasPrefix("attachment;") == true)
            #expect(download["Content-Disposition"]?.contains("filename*=UTF-8''report%20%C3%BC.pdf") == true)
            #expect(download["X-Content-Type-Options"] == "nosniff")
            #expect(download["Content-Security-Policy"]?.contains("sandbox") == true)
            let etag = try #require(download["ETag"])
            let again = try await api.download(link, headers: [.ifNoneMatch: etag])
            #expect(again.status == 304)
            #expect(again.bytes.isEmpty)
            // The message reads back the same through history, for the other member with their own key.
            let history = try await api.get(
                "/v3/group_channels/\(url)/messages?message_ts=0&prev_limit=0&next_limit=5", as: users.session(1))
            let listed = try #require(try history.decode(MessageList.self).messages.first)
            let theirLink = try #require(listed.file?.url)
            #expect(theirLink != link && theirLink.hasPrefix(link.components(separatedBy: "?").first!))
            #expect(try await api.download(theirLink).bytes == bytes)
            // The admin's payload carries plain links.
            let asAdmin = try await api.get("/v3/group_channels/\(url)/messages/\(message.messageID)").decode(MessageBody.self)
            #expect(asAdmin.file?.url == link.components(separatedBy: "?").first)
        }
    }

    @Test func rangesServeTheFirstMiddleAndLastBytesAndRefuseOutOfRange() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await setUp(api, "range")
            let bytes = Media.random(150_000)  // three chunks of 64 KiB
            let sent = try await api.upload(url, file: FormFile(bytes: bytes), as: users.session(0))
            let link = try #require(try sent.decode(MessageBody.self).file?.url)
            let first = try await api.download(link, headers: [.range: "bytes=0-99"])
            #expect(first.status == 206)
            #expect(first.bytes == Array(bytes[0..<100]))
            #expect(first["Content-Range"] == "bytes 0-99/150000")
            let middle = try await api.download(link, headers: [.range: "bytes=65000-70000"])
            #expect(middle.status == 206)
            #expect(middle.bytes == Array(bytes[65000...70000]), "a range across a chunk boundary")
            let suffix = try await api.download(link, headers: [.range: "bytes=-500"])
            #expect(suffix.bytes == Array(bytes[(150_000 - 500)...]))
            #expect(suffix["Content-Range"] == "bytes 149500-149999/150000")
            let open = try await api.download(link, headers: [.range: "bytes=149990-"])
            #expect(open.bytes == Array(bytes[149_990...]))
            let outside = try await api.download(link, headers: [.range: "bytes=150000-"])
            #expect(outside.status == 416)
            #expect(outside["Content-Range"] == "bytes */150000")
        }
    }

    @Test func storedBytesHoldNoPlaintextAndATamperedChunkIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await TestServer.withAPI({ $0.fileDirectory = folder }) { api in
            let (users, url) = try await setUp(api, "atrest")
            let marker = Array("PLAINTEXT-MARKER-0123456789".utf8)
            let bytes = Array((0..<5000).flatMap { _ in marker })
            let sent = try await api.upload(url, file: FormFile(contentType: "text/plain", bytes: bytes), as: users.session(0))
            #expect(sent.status == 201)
            let link = try #require(try sent.decode(MessageBody.self).file?.url)
            let stored = Self.files(in: folder).filter { !$0.hasPrefix("tmp/") }
            #expect(stored.count == 1)
            let path = folder + "/" + stored[0]
            var onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(onDisk.count > bytes.count, "header and tags")
            #expect(!Data(onDisk).contains(Data(marker)), "no plaintext at rest")
            #expect(try await api.download(link).bytes == bytes)
            // Flip one bit of the second chunk: the first still serves, the second is refused.
            onDisk[79 + 65536 + 16 + 10] ^= 0x01
            try Data(onDisk).write(to: URL(fileURLWithPath: path))
            let start = try await api.download(link, headers: [.range: "bytes=0-99"])
            #expect(start.status == 206 && start.bytes == Array(bytes[0..<100]))
            let tampered = try await api.download(link, headers: [.range: "bytes=70000-70100"])
            #expect(tampered.status == 500, "a chunk that fails authentication is never served")
            #expect(try await api.get("/health").status == 200)
        }
    }

    @Test func anUploadOverTheLimitIs413AndLeavesNothingBehind() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await TestServer.withAPI({
            $0.fileDirectory = folder
            $0.limits.uploadBytes = 100_000
        }) { api in
            let (users, url) = try await setUp(api, "toolarge")
            // Over the limit, yet small enough to sit whole in the loopback socket buffers: the
            // server answers and closes once it has read 100,000 bytes, and a client still writing
            // a much larger body may see the close before the answer (it did, on a loaded CI run).
            let refused = try await api.upload(url, file: FormFile(bytes: Media.random(150_000)), as: users.session(0))
            #expect(refused.status == 413)
            #expect(try refused.code == 400110)
            #expect(Self.files(in: folder).isEmpty, "no stored or temporary file remains")
            let history = try await api.get("/v3/group_channels/\(url)/messages?message_ts=0&prev_limit=0&next_limit=5")
            #expect(try history.decode(MessageList.self).messages.isEmpty)
            #expect(try await api.upload(url, file: FormFile(bytes: Media.random(100_000)), as: users.session(0)).status == 201)
        }
    }

    @Test func badUploadsGetTheDocumentedErrorsAndStoreNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await TestServer.withAPI({ $0.fileDirectory = folder }) { api in
            let (users, url) = try await setUp(api, "badupload")
            let file = FormFile(bytes: Media.random(1000))
            #expect(
                try await api.upload(url, ["thumbnail4": "10x10", "thumbnail1": "10x10"], file: file, as: users.session(0)).code == 400111)
            #expect(try await api.upload(url, ["thumbnail1": "wide"], file: file, as: users.session(0)).code == 400111)
            #expect(try await api.upload(url, ["require_auth": "maybe"], file: file, as: users.session(0)).code == 400104)
            #expect(try await api.upload(url, ["message_type": "MESG"], file: file, as: users.session(0)).code == 400111)
            #expect(
                try await api.upload(url, ["file_type": "text/html\r\nSet-Cookie: a=b"], file: file, as: users.session(0)).code == 400111)
            #expect(try await api.upload(url, ["custom_type": "x"], file: nil, as: users.session(0)).code == 400105)
            #expect(try await api.upload(url, file: file, as: users.session(2)).status == 404, "an outsider cannot see the private channel")
            #expect(try await api.upload(url, ["user_id": users[1]], file: file, as: users.session(0)).status == 403)
            #expect(try await api.upload("nope-\(uniqueID("c"))", ["user_id": users[0]], file: file).status == 404)
            let broken = try await api.bytes(
                .post, "/v3/group_channels/\(url)/messages",
                body: Array("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc".utf8),
                headers: [.contentType: "multipart/form-data; boundary=b"], as: users.session(0)
            )
            #expect(broken.status == 400)
            #expect(try await eventually { Self.files(in: folder).isEmpty })
            #expect(try await api.upload(url, file: file, as: users.session(0)).status == 201)
        }
    }

    @Test func aFileMessageCanLinkAnExternalURL() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await setUp(api, "external")
            let path = "/v3/group_channels/\(url)/messages"
            let sent = try await api.post(
                path,
                [
                    "message_type": "FILE", "url": "https://cdn.example.com/a.png", "file_name": "a.png", "file_type": "image/png",
                    "file_size": 1234
                ], as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let message = try sent.decode(MessageBody.self)
            #expect(message.file?.url == "https://cdn.example.com/a.png")
            #expect(message.file?.size == 1234)
            #expect(message.thumbnails?.isEmpty == true)
            #expect(message.requireAuth == false)
            #expect(try await api.post(path, ["message_type": "FILE"], as: users.session(0)).code == 400105)
            #expect(try await api.post(path, ["message_type": "FILE", "url": "javascript:alert(1)"], as: users.session(0)).code == 400111)
            #expect(
                try await api.post(
                    path, ["message_type": "FILE", "url": "https://x.example/a", "file_type": "not a type"], as: users.session(0)
                ).code == 400111)
            #expect(
                try await api.post(path, ["message_type": "FILE", "url": "https://x.example/a", "file_size": -1], as: users.session(0)).code
                    == 400111)
        }
    }

    @Test func deletingTheMessageOrTheChannelDeletesItsFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await TestServer.withAPI({ $0.fileDirectory = folder }) { api in
            let (users, url) = try await setUp(api, "filedelete")
            let image = try Media.jpeg(400, 300)
            let first = try await api.upload(
                url, ["thumbnail1": "100x100"], file: FormFile(fileName: "a.jpg", contentType: "image/jpeg", bytes: image),
                as: users.session(0))
            let second = try await api.upload(url, file: FormFile(bytes: Media.random(1000)), as: users.session(0))
            #expect(Self.files(in: folder).count == 3, "two files and one thumbnail")
            let firstMessage = try first.decode(MessageBody.self)
            let firstLink = try #require(firstMessage.file?.url)
            #expect(
                try await api.delete("/v3/group_channels/\(url)/messages/\(firstMessage.messageID)", as: users.session(0)).status == 200)
            #expect(Self.files(in: folder).count == 1)
            #expect(try await api.download(firstLink).status == 404)
            let secondLink = try #require(try second.decode(MessageBody.self).file?.url)
            #expect(try await api.delete("/v3/group_channels/\(url)").status == 200)
            #expect(Self.files(in: folder).isEmpty)
            #expect(try await api.download(secondLink).status == 404)
        }
    }

    @Test func aFileSentToAnEphemeralChannelIsServedButNotKeptInHistory() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("ephemeralfile", 2)
            let url = try await api.createChannel(["user_ids": [users[1]], "is_ephemeral": true], as: users.session(0))
            let bytes = Media.random(2000)
            let sent = try await api.upload(url, file: FormFile(bytes: bytes), as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let link = try #require(try sent.decode(MessageBody.self).file?.url)
            #expect(try await api.download(link).bytes == bytes)
            let history = try await api.get("/v3/group_channels/\(url)/messages?message_ts=0&prev_limit=0&next_limit=5")
            #expect(try history.decode(MessageList.self).messages.isEmpty)
            #expect(try await api.delete("/v3/group_channels/\(url)").status == 200)
            #expect(try await api.download(link).status == 404)
        }
    }

    @Test func aRetriedUploadWithTheSameDedupIDKeepsOneFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await TestServer.withAPI({ $0.fileDirectory = folder }) { api in
            let (users, url) = try await setUp(api, "filededup")
            let file = FormFile(bytes: Media.random(5000))
            let first = try await api.upload(url, ["dedup_id": "u1"], file: file, as: users.session(0))
            let retry = try await api.upload(url, ["dedup_id": "u1"], file: file, as: users.session(0))
            #expect(first.status == 201)
            #expect(retry.status == 200)
            #expect(try retry.decode(MessageBody.self).messageID == first.decode(MessageBody.self).messageID)
            #expect(Self.files(in: folder).count == 1)
        }
    }
}

/// What a crash leaves behind (an unfinished upload, a stored file whose message was never
/// saved) is removed once it is older than the grace period; files messages use, and fresh
/// files, are left alone.
@Suite struct FileSweeperTests {
    @Test func orphansOlderThanTheGracePeriodAreRemovedAtStartUp() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        let manager = FileManager.default
        let old = Date().addingTimeInterval(-2 * 3600)
        let fileKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
        // A first server stores a file that a message uses, then stops.
        let kept = LinkBox()
        try await TestServer.withAPI({
            $0.fileDirectory = folder
            $0.fileKey = fileKey
        }) { api in
            let users = try await api.cast("sweep", 1)
            let url = try await api.createChannel([:], as: users.session(0))
            let sent = try await api.upload(url, file: FormFile(bytes: Media.random(100)), as: users.session(0))
            #expect(sent.status == 201)
            kept.link = try sent.decode(MessageBody.self).file?.url
        }
        let link = try #require(kept.link)
        let keptID = String(link.split(separator: "/").last!.split(separator: "?").first!)
        let keptPath = folder + "/" + keptID.prefix(2) + "/" + keptID
        try manager.setAttributes([.modificationDate: old], ofItemAtPath: keptPath)
        // Leftovers of a crash, old enough to go, and a fresh one that must stay.
        try manager.createDirectory(atPath: folder + "/ab", withIntermediateDirectories: true)
        let orphan = folder + "/ab/ab" + String(repeating: "0", count: 30)
        let orphanThumbnail = orphan + ".t1"
        let unfinished = folder + "/tmp/ab\(String(repeating: "1", count: 30)).part"
        let fresh = folder + "/ab/ab" + String(repeating: "2", count: 30)
        for path in [orphan, orphanThumbnail, unfinished, fresh] {
            #expect(manager.createFile(atPath: path, contents: Data("x".utf8)))
        }
        for path in [orphan, orphanThumbnail, unfinished] {
            try manager.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        // A second server sweeps as it starts.
        try await TestServer.withAPI({
            $0.fileDirectory = folder
            $0.fileKey = fileKey
        }) { api in
            // The sweep runs beside the server's start-up, on the files' real modification times.
            try await eventually(within: .seconds(5)) { !manager.fileExists(atPath: orphan) && !manager.fileExists(atPath: unfinished) }
            #expect(!manager.fileExists(atPath: orphan))
            #expect(!manager.fileExists(atPath: orphanThumbnail))
            #expect(!manager.fileExists(atPath: unfinished))
            #expect(manager.fileExists(atPath: fresh), "younger than the grace period: maybe a send in progress")
            #expect(manager.fileExists(atPath: keptPath), "a message still uses it")
            #expect(try await api.download(link).status == 200)
        }
    }
}

private final class LinkBox: @unchecked Sendable {
    var link: String?
}
