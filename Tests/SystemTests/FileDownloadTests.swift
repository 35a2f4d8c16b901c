import Foundation
import HTTPTypes
import Testing

/// Downloads (API.md §5) of files stored encrypted in chunks: byte ranges, and a tampered chunk refused.
@Suite struct FileDownloadTests: FileFixtures {
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
}
