import Foundation
import Testing

/// Issue 50.11: an upload to the S3 store goes up in parts through one buffer, which libcurl
/// reads without a copy. Measured on a `parley serve` process of its own (the test's client and
/// stand-in are elsewhere): three uploads of 20 MiB in parts of 8 MiB, the server's resident
/// memory read after each (it grew +21, +11 and +0.6 MiB before, one of 60 MiB +24).
@Suite(.serialized) struct UploadMemoryTests {
    @Test func s3UploadsHoldOnePartAndGiveItBack() async throws {
        try await OwnDatabase.with { database in
            let s3 = try S3StandIn.shared.get().settings()
            let files = FileManager.default.temporaryDirectory.appendingPathComponent("parley-upload-memory-\(UUID())").path
            let process = try await ServerProcess(environment: [
                "DATABASE_URL": database, "PARLEY_FILE_STORE": "s3", "PARLEY_S3_ENDPOINT": s3.endpoint, "PARLEY_S3_BUCKET": s3.bucket,
                "PARLEY_S3_ACCESS_KEY_ID": s3.accessKeyID, "PARLEY_S3_SECRET_ACCESS_KEY": s3.secretAccessKey,
                "PARLEY_S3_PART_SIZE_MB": "8", "PARLEY_FILE_DIR": files, "PARLEY_MAX_UPLOAD_BYTES": String(100 << 20)
            ])
            defer { _ = process.stop() }
            let admin = ["Api-Token": TestServer.apiToken]
            #expect(
                try await process.request("POST", "/v3/users", headers: admin, body: #"{"user_id":"uploader","nickname":"U"}"#).status
                    == 201)
            let made = try await process.request(
                "POST", "/v3/group_channels", headers: admin, body: #"{"user_ids":["uploader"],"channel_url":"uploads"}"#)
            #expect(made.status == 201, "\(made.text.prefix(300))")
            let boundary = "parley-memory"
            func body(_ megabytes: Int) -> [UInt8] {
                let head =
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"user_id\"\r\n\r\nuploader\r\n"
                    + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n"
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<(megabytes << 17)).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
                return Array(head.utf8) + bytes + Array("\r\n--\(boundary)--\r\n".utf8)
            }
            func upload(_ bytes: [UInt8]) async throws {
                let answer = try await process.request(
                    "POST", "/v3/group_channels/uploads/messages",
                    headers: admin.merging(["Content-Type": "multipart/form-data; boundary=\(boundary)"]) { $1 }, bytes: bytes)
                #expect(answer.status == 200 || answer.status == 201, "\(answer.text.prefix(300))")
            }
            // A small one first: what any first upload sets up is not what this measures.
            try await upload(body(1))
            let twenty = body(20)
            let before = ProcessMemory.residentBytes(of: process.pid)
            var growth: [Int] = []
            for _ in 0..<3 {
                let start = ProcessMemory.residentBytes(of: process.pid)
                try await upload(twenty)
                growth.append(ProcessMemory.residentBytes(of: process.pid) - start)
            }
            let total = ProcessMemory.residentBytes(of: process.pid) - before
            print("S3 uploads of 20 MiB: resident memory grew \(growth.map { "\($0 >> 10) KiB" }), \(total >> 20) MiB in all")
            // One part (8 MiB) held while it is sent, and nothing kept of it between uploads.
            #expect(total < 10 << 20, "grew \(total >> 20) MiB over three uploads")
            try await upload(body(60))
            let sixty = ProcessMemory.residentBytes(of: process.pid) - before
            print("and one of 60 MiB: \(sixty >> 20) MiB above the start")
            #expect(sixty < 10 << 20, "grew \(sixty >> 20) MiB with a 60 MiB upload")
        }
    }
}
