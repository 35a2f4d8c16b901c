import Foundation
import ParleyContainer
import S3Storage
import Testing

/// `parley migrate-files`: files stored in the folder move to the bucket and back, still opening
/// under their key, and a run stopped halfway is completed by running it again.
@Suite struct FileMigrationTests {
    static func migrate(_ destination: String, folder: String, bucket: S3Settings, keep: Bool = false) throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("parley").path
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = "postgresql://unused"
        environment["PARLEY_API_TOKEN"] = TestServer.apiToken
        environment["PARLEY_FILE_KEY"] = Data(repeating: 1, count: 32).base64EncodedString()
        environment["PARLEY_FILE_DIR"] = folder
        environment["PARLEY_S3_ENDPOINT"] = bucket.endpoint
        environment["PARLEY_S3_BUCKET"] = bucket.bucket
        environment["PARLEY_S3_ACCESS_KEY_ID"] = bucket.accessKeyID
        environment["PARLEY_S3_SECRET_ACCESS_KEY"] = bucket.secretAccessKey
        let ended = try runProgram(
            binary, ["migrate-files", "--to", destination] + (keep ? ["--keep-source"] : []), environment: environment, capture: true)
        guard ended.termination == .exited(0) else { throw TestFailure("migrate-files --to \(destination): \(ended.output)") }
        return ended.output
    }

    @Test func filesMoveToTheBucketAndBackResumably() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        let bucket = try S3StandIn.shared.get().settings()
        let objects = try S3StandIn.shared.get().client(bucket)
        let key = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let image = try Media.jpeg(200, 150)
        let plain = Media.random(7 << 20)
        let links = LinksBox()
        try await FileStoreTests.withServer(.local, fileKey: key, folder: folder) { api, _, _ in
            let users = try await api.cast("migrate", 1)
            let channel = try await api.createChannel([:], as: users.session(0))
            let picture = try await api.upload(
                channel, ["thumbnail1": "50x50"], file: FormFile(fileName: "a.jpg", contentType: "image/jpeg", bytes: image),
                as: users.session(0))
            let other = try await api.upload(channel, file: FormFile(bytes: plain), as: users.session(0))
            links.values = [
                try #require(try picture.decode(MessageBody.self).file?.url), try #require(try other.decode(MessageBody.self).file?.url)
            ]
        }
        #expect(FileMessageTests.files(in: folder).count == 3)
        // Copied while the servers still read the folder; then one object is lost (a run that
        // stopped before it), and the second run, which removes, completes the move.
        #expect(try Self.migrate("s3", folder: folder, bucket: bucket, keep: true).contains("3 files copied"))
        #expect(FileMessageTests.files(in: folder).count == 3)
        let first = try #require(try await objects.list().objects.first)
        try await objects.delete(first.key)
        #expect(try Self.migrate("s3", folder: folder, bucket: bucket).contains("3 files moved"))
        #expect(FileMessageTests.files(in: folder).isEmpty)
        #expect(try await objects.list().objects.count == 3)
        try await FileStoreTests.withServer(.s3, fileKey: key, folder: folder, bucket: bucket) {
            (api: API, container: Container, _: S3Client?) async throws in
            #expect(try await api.download(links.values[0]).bytes == image)
            #expect(try await api.download(links.values[1]).bytes == plain)
            #expect(await container.files.checkMasterKey().failures.isEmpty)
        }
        #expect(try Self.migrate("local", folder: folder, bucket: bucket).contains("3 files moved"))
        #expect(try await objects.list().objects.isEmpty)
        try await FileStoreTests.withServer(.local, fileKey: key, folder: folder) { (api: API, _: Container, _: S3Client?) async throws in
            #expect(try await api.download(links.values[1]).bytes == plain)
        }
    }
}

private final class LinksBox: @unchecked Sendable {
    var values: [String] = []
}
