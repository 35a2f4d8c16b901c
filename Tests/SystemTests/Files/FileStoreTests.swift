import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyContainer
import ParleyFiles
import ParleyHTTP
import S3Storage
import Testing

/// The two file stores (`PARLEY_FILE_STORE`) through one suite: every test runs against the
/// local folder and against an S3 service (the stand-in checks each request's signature).
@Suite struct FileStoreTests {
    /// A server whose files live in a fresh store of `kind`, with its container (for the checks
    /// `parley serve` runs) and, for S3, a client of its bucket.
    static func withServer(
        _ kind: FileStoreKind, fileKey: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }, folder: String? = nil,
        bucket: S3Settings? = nil, _ body: @escaping @Sendable (API, Container, S3Client?) async throws -> Void
    ) async throws {
        try await Migrations.shared.ensureApplied()
        let s3 = try bucket ?? (kind == .s3 ? S3StandIn.shared.get().settings() : nil)
        let objects = try s3.map { try S3StandIn.shared.get().client($0) }
        let config = try TestServer.config { config in
            config.fileKey = fileKey
            if let folder { config.fileDirectory = folder }
            config.objectStore = s3
        }
        let container = try Container.live(config: config, logger: TestServer.logger)
        try await container.files.prepareStorage()
        try await buildApplication(container: container).test(.live) { client in
            try await body(API(client: client), container, objects)
        }
    }

    /// The stored-file sweep (`StoredFileSweepJob`'s pages) over the whole store.
    static func sweep(_ files: FileService, now: Date) async throws -> Int {
        var (removed, after): (Int, String?) = (0, "")
        while let position = after {
            let page = try await files.sweepStoredFiles(after: position, now: now, gracePeriod: 3600)
            (removed, after) = (removed + page.removed, page.next)
        }
        return removed
    }

    static func storedNames(_ objects: S3Client?, _ folder: String?) async throws -> [String] {
        if let objects { return try await objects.list().objects.map(\.key).sorted() }
        return FileMessageTests.files(in: try #require(folder)).sorted()
    }

    @Test(arguments: FileStoreKind.allCases) func filesAndThumbnailsGoInAndComeBackSealed(_ kind: FileStoreKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await Self.withServer(kind, folder: folder) { api, _, objects in
            let users = try await api.cast("store\(kind)", 2)
            let channel = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let image = try Media.jpeg(400, 300)
            let picture = try await api.upload(
                channel, ["thumbnail1": "100x100"], file: FormFile(fileName: "a.jpg", contentType: "image/jpeg", bytes: image),
                as: users.session(0))
            #expect(picture.status == 201, "\(picture.text)")
            let pictureMessage = try picture.decode(MessageBody.self)
            let pictureLink = try #require(pictureMessage.file?.url)
            #expect(try await api.download(pictureLink, as: users.session(1)).bytes == image)
            let thumbnail = try #require(pictureMessage.thumbnails?.first?.url)
            let thumb = try await api.download(thumbnail, as: users.session(1))
            #expect(thumb.status == 200 && thumb["Content-Type"]?.hasPrefix("image/") == true)
            // Larger than a part: sent in three, read back in windows, and by range.
            let big = Media.random(12 << 20)
            let sent = try await api.upload(channel, file: FormFile(bytes: big), as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let bigLink = try #require(try sent.decode(MessageBody.self).file?.url)
            #expect(try await api.download(bigLink, as: users.session(1)).bytes == big)
            let range = try await api.download(bigLink, headers: [.range: "bytes=6000000-6000099"], as: users.session(1))
            #expect(range.status == 206 && range.bytes == Array(big[6_000_000..<6_000_100]))
            let stored = try await Self.storedNames(objects, folder)
            #expect(stored.count == 3, "two files and a thumbnail: \(stored)")
            if let objects {
                // The store holds sealed bytes only.
                let name = try #require(
                    stored.first { !$0.hasSuffix(".t1") && $0.hasSuffix(String(bigLink.split(separator: "/").last!.prefix(32))) })
                let raw = try await objects.get(name, range: 0..<4096).bytes
                #expect(Array(raw.prefix(8)) == Array("PRLYFIL1".utf8))
                #expect(!raw.windows(ofCount: 64).contains { Array($0) == Array(big.prefix(64)) })
            }
            #expect(
                try await api.delete("/v3/group_channels/\(channel)/messages/\(pictureMessage.messageID)", as: users.session(0)).status
                    == 200)
            #expect(try await Self.storedNames(objects, folder).count == 1, "the picture and its thumbnail went with their message")
            #expect(try await api.download(pictureLink).status == 404)
            #expect(try await api.delete("/v3/group_channels/\(channel)").status == 200)
            #expect(try await Self.storedNames(objects, folder).isEmpty)
        }
    }

    /// `PARLEY_S3_PATH_STYLE=false` (AWS's own addressing): requests go to `<bucket>.<endpoint
    /// host>`, here `<bucket>.localhost`, which libcurl resolves to loopback itself (RFC 6761), and
    /// the stand-in finds the bucket by the name in the host and checks the signature of that host.
    @Test func virtualHostedAddressingReachesTheBucketByItsHostName() async throws {
        let standIn = try S3StandIn.shared.get()
        var bucket = standIn.settings()
        bucket.endpoint = "http://localhost:\(standIn.handshake.port)"
        bucket.pathStyle = false
        var pathStyle = bucket
        (pathStyle.endpoint, pathStyle.pathStyle) = ("http://127.0.0.1:\(standIn.handshake.port)", true)
        let samePathStyle = pathStyle
        let expectedURL = "http://\(bucket.bucket).localhost:\(standIn.handshake.port)"
        try await Self.withServer(.s3, bucket: bucket) { api, container, objects in
            #expect(objects?.bucketURL == expectedURL)
            let users = try await api.cast("storevhost", 2)
            let channel = try await api.createChannel(["user_ids": [users[1]]], as: users.session(0))
            let bytes = Media.random(7 << 20)
            let sent = try await api.upload(channel, file: FormFile(bytes: bytes), as: users.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            let link = try #require(try sent.decode(MessageBody.self).file?.url)
            #expect(try await api.download(link, as: users.session(1)).bytes == bytes)
            // The same bucket through path-style addressing holds the object.
            let names = try await standIn.client(samePathStyle).list().objects.map(\.key)
            #expect(names.count == 1 && names[0].hasSuffix(String(link.split(separator: "/").last!.prefix(32))), "\(names)")
            #expect(try await objects?.list().objects.map(\.key) == names)
            #expect(try await Self.sweep(container.files, now: Date().addingTimeInterval(7200)) == 0)
        }
    }

    @Test(arguments: FileStoreKind.allCases) func theMasterKeyCheckOpensTheStoredFiles(_ kind: FileStoreKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        let bucket = try kind == .s3 ? S3StandIn.shared.get().settings() : nil
        let key = (0..<32).map { _ in UInt8.random(in: 0...255) }
        try await Self.withServer(kind, fileKey: key, folder: folder, bucket: bucket) { api, container, _ in
            let users = try await api.cast("storekey\(kind)", 1)
            let channel = try await api.createChannel([:], as: users.session(0))
            #expect(try await api.upload(channel, file: FormFile(bytes: Media.random(3000)), as: users.session(0)).status == 201)
            let check = await container.files.checkMasterKey()
            #expect(check.checked == 1 && check.failures.isEmpty, "\(check)")
        }
        try await Self.withServer(kind, folder: folder, bucket: bucket) { _, container, _ in
            let check = await container.files.checkMasterKey()
            #expect(check.isWrongKey, "another key opens none of them: \(check)")
        }
    }

    @Test(arguments: FileStoreKind.allCases) func orphansOlderThanTheGracePeriodAreSwept(_ kind: FileStoreKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        try await Self.withServer(kind, folder: folder) { api, container, objects in
            let users = try await api.cast("storesweep\(kind)", 1)
            let channel = try await api.createChannel([:], as: users.session(0))
            let sent = try await api.upload(channel, file: FormFile(bytes: Media.random(3000)), as: users.session(0))
            let link = try #require(try sent.decode(MessageBody.self).file?.url)
            // What a crash between the store and the message's commit leaves.
            let orphan = "ab/ab" + String(repeating: "0", count: 30)
            if let objects {
                try await objects.put(orphan, [1, 2, 3])
            } else {
                try FileManager.default.createDirectory(atPath: folder + "/ab", withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: folder + "/" + orphan, contents: Data([1, 2, 3])))
            }
            if let objects {
                // The sweep's position between pages is a key: the listing goes on after it.
                let keys = try await objects.list().objects.map(\.key)
                #expect(keys.count == 2 && keys.sorted() == keys, "\(keys)")
                #expect(try await objects.list(startAfter: keys[0]).objects.map(\.key) == Array(keys.dropFirst()))
            }
            #expect(try await Self.sweep(container.files, now: Date()) == 0, "fresh: maybe a send in progress")
            #expect(try await Self.storedNames(objects, folder).contains(orphan))
            #expect(try await Self.sweep(container.files, now: Date().addingTimeInterval(7200)) == 1)
            let left = try await Self.storedNames(objects, folder)
            #expect(!left.contains(orphan) && left.count == 1, "\(left)")
            #expect(try await api.download(link, as: users.session(0)).status == 200)
        }
    }
}
