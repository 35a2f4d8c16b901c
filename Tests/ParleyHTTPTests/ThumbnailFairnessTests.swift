import Foundation
import Synchronization
import Testing

/// Issue 29: thumbnails are budgeted by decoded pixels and taken in turns per user. One user
/// floods huge images (10000 × 9990, 100 Mpx each); another user's small upload gets its
/// thumbnail without waiting behind the flood, and the process's peak memory stays bounded.
@Suite(.serialized) struct ThumbnailFairnessTests {
    final class Finished: Sendable {
        let order = Mutex<[String]>([])
        func add(_ name: String) { order.withLock { $0.append(name) } }
    }

    @Test func aSmallUploadIsNotStarvedByAnotherUsersHugeImages() async throws {
        let huge = try Media.ffmpeg("huge.png", ["-f", "lavfi", "-i", "testsrc=size=10000x9990", "-frames:v", "1"])
        let small = try Media.jpeg(320, 240)
        try await TestServer.withAPI { api in
            let users = try await api.cast("thumbfair", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let before = ProcessMemory.peakResidentBytes(reset: true)
            // Which uploads had finished, with thumbnails, in the order they finished.
            let finished = Finished()
            try await api.withConnections(13) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for n in 0..<12 {
                        group.addTask {
                            let sent = try await clients[n].upload(
                                url, ["thumbnail1": "2048x2048", "thumbnail2": "1024x1024", "thumbnail3": "200x200"],
                                file: FormFile(fileName: "huge.png", contentType: "image/png", bytes: huge), as: users.session(0))
                            #expect(sent.status == 201, "\(sent.text)")
                            if !(try sent.decode(MessageBody.self).thumbnails ?? []).isEmpty { finished.add("huge\(n)") }
                        }
                    }
                    group.addTask {
                        // The flood is under way first.
                        try await Task.sleep(for: .seconds(1))
                        let sent = try await clients[12].upload(
                            url, ["thumbnail1": "100x100"], file: FormFile(contentType: "image/jpeg", bytes: small), as: users.session(1))
                        #expect(try sent.decode(MessageBody.self).thumbnails?.count == 1, "\(sent.text)")
                        finished.add("small")
                    }
                    try await group.waitForAll()
                }
            }
            let order = finished.order.withLock { $0 }
            let growth = ProcessMemory.peakResidentBytes() - before
            print("thumbnail fairness: finished \(order); peak RSS growth \(growth >> 20) MiB")
            // Before, the small upload queued behind every huge one on the file threads; now it
            // waits for about the one decoding when it arrives (and one per other user); 4 leaves room for a slow machine.
            let hugeBefore = order.prefix { $0 != "small" }.count
            #expect(order.contains("small") && hugeBefore <= 4, "\(order)")
            // The pixel budget lets one such image decode at a time.
            #expect(growth < 1 << 30, "peak RSS grew \(growth >> 20) MiB")
        }
    }
}
