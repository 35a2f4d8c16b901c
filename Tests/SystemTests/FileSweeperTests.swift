import Foundation
import Testing

/// What a crash leaves behind (an unfinished upload, a stored file whose message was never
/// saved) is removed once it is older than the grace period; files messages use, and fresh
/// files, are left alone. Unfinished uploads go by the instance's `FileSweeper` as it starts;
/// stored files by the hourly `StoredFileSweepJob`, whose first run an instance schedules as it
/// starts (on a database of this test's own, so that no other test's server takes the job).
@Suite struct FileSweeperTests {
    @Test func orphansOlderThanTheGracePeriodAreRemovedAtStartUp() async throws {
        try await OwnDatabase.with { database in try await Self.sweepsAtStartUp(database) }
    }

    static func sweepsAtStartUp(_ database: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        let manager = FileManager.default
        let old = Date().addingTimeInterval(-2 * 3600)
        let fileKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
        // A first server stores a file that a message uses, then stops.
        let kept = LinkBox()
        try await TestServer.withAPI({
            $0.databaseURL = database
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
        // Leftovers of a crash, old enough to go, and a fresh one that must stay; a folder after
        // the kept file's, so that the sweep goes on past a page.
        try manager.createDirectory(atPath: folder + "/ab", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/fe", withIntermediateDirectories: true)
        let lateOrphan = folder + "/fe/fe" + String(repeating: "3", count: 30)
        let orphan = folder + "/ab/ab" + String(repeating: "0", count: 30)
        let orphanThumbnail = orphan + ".t1"
        let unfinished = folder + "/tmp/ab\(String(repeating: "1", count: 30)).part"
        let fresh = folder + "/ab/ab" + String(repeating: "2", count: 30)
        for path in [orphan, orphanThumbnail, unfinished, fresh, lateOrphan] {
            #expect(manager.createFile(atPath: path, contents: Data("x".utf8)))
        }
        for path in [orphan, orphanThumbnail, unfinished, lateOrphan] {
            try manager.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        // A second server sweeps as it starts (the test servers' jobs are off unless asked for).
        try await TestServer.withAPI({
            $0.databaseURL = database
            $0.fileDirectory = folder
            $0.fileKey = fileKey
            $0.jobs.enabled = true
        }) { api in
            // The sweep runs beside the server's start-up, on the files' real modification times.
            try await eventually(within: .seconds(10)) {
                !manager.fileExists(atPath: orphan) && !manager.fileExists(atPath: unfinished) && !manager.fileExists(atPath: lateOrphan)
            }
            #expect(!manager.fileExists(atPath: orphan))
            #expect(!manager.fileExists(atPath: orphanThumbnail))
            #expect(!manager.fileExists(atPath: unfinished))
            #expect(!manager.fileExists(atPath: lateOrphan))
            #expect(manager.fileExists(atPath: fresh), "younger than the grace period: maybe a send in progress")
            #expect(manager.fileExists(atPath: keptPath), "a message still uses it")
            #expect(try await api.download(link).status == 200)
        }
    }
}

private final class LinkBox: @unchecked Sendable {
    var link: String?
}
