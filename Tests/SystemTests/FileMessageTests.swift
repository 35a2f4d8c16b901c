import Foundation
import Testing

/// FILE messages (API.md §5): external links, and files going with their message or channel.
@Suite struct FileMessageTests: FileFixtures {
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
}
