import Foundation
import HTTPTypes
import Testing

/// Uploads (API.md §5): a round trip byte for byte, the size limit, bad uploads and retries, none leaving a stray file.
@Suite struct FileUploadTests: FileFixtures {
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
