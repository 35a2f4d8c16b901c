import Foundation
import ParleyContainer
import Postgres
import Testing

/// Issue 10.15: a request that cannot have what it waits for in time is answered 503 with
/// `Retry-After`, and ffmpeg processes are capped.
@Suite struct BoundedWaitTests {
    @Test func aRequestThatWaitsTooLongForALockIs503WithRetryAfter() async throws {
        try await TestServer.withAPI({ $0.databaseSession.lockTimeout = .milliseconds(300) }) { api in
            let users = try await api.cast("locked", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let holder = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            try holder.execute("BEGIN")
            try holder.query("SELECT 1 FROM group_channels WHERE channel_url = $1 FOR UPDATE", [url])
            let started = ContinuousClock.now
            let sent = try await api.post("/v3/group_channels/\(url)/messages", ["message": "waiting"], as: users.session(0))
            let waited = ContinuousClock.now - started
            try holder.execute("ROLLBACK")
            #expect(sent.status == 503)
            #expect(try sent.code == 500902)
            #expect(sent.headers[.retryAfter] == "1")
            // The holder never lets go: an answer at all proves the wait is bounded. A few lock
            // timeouts of 300 ms (the transaction is retried) are far below this, also on a
            // machine busy with the rest of the suite.
            #expect(waited < .seconds(10))
            #expect(try await api.post("/v3/group_channels/\(url)/messages", ["message": "now"], as: users.session(0)).status == 201)
        }
    }

    @Test func atMostTheConfiguredNumberOfFFmpegsRunAtOnce() async throws {
        // An ffmpeg that notes how many of its kind run beside it, then does the real work.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(uniqueID("ffmpeg-count"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("ffmpeg")
        try """
        #!/bin/sh
        touch "\(folder.path)/running.$$"
        ls "\(folder.path)" | grep -c '^running' >> "\(folder.path)/counts"
        sleep 0.4
        rm -f "\(folder.path)/running.$$"
        exec ffmpeg "$@"
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let video = try Media.video()
        try await TestServer.withAPI({
            $0.files.ffmpegPath = script.path
            $0.files.ffmpegConcurrency = 2
        }) { api in
            let users = try await api.cast("videos", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            try await api.withConnections(6) { clients in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for client in clients {
                        group.addTask {
                            let sent = try await client.upload(
                                url, ["thumbnail1": "100x100"],
                                file: FormFile(fileName: "clip.mp4", contentType: "video/mp4", bytes: video),
                                as: users.session(0))
                            return try sent.decode(MessageBody.self).thumbnails?.count ?? 0
                        }
                    }
                    for try await thumbnails in group { #expect(thumbnails == 1, "every video still gets its thumbnail") }
                }
            }
        }
        let counts = try String(contentsOf: folder.appendingPathComponent("counts"), encoding: .utf8).split(separator: "\n").compactMap {
            Int($0)
        }
        #expect(counts.count == 6)
        #expect(counts.max() ?? 0 <= 2, "\(counts)")
    }
}
