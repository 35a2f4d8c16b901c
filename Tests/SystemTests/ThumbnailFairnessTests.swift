import Foundation
import Synchronization
import Testing

/// Issue 29.3: thumbnails are budgeted by decoded pixels and taken in turns per user. One user
/// floods progressive JPEGs of 10000 × 9990 (100 Mpx; decoding one holds its whole image, about
/// 350 MB, whatever the box); the process's peak memory stays near one such decode, where the
/// file threads decoded four at once before; another user's small upload still gets its thumbnail.
/// Runs with the process suites (`scripts/test`), so no in-process suite moves the peak.
@Suite(.serialized) struct ThumbnailFairnessTests {
    final class Count: Sendable {
        let value = Mutex(0)
    }

    @Test func hugeProgressiveJPEGsDecodeWithinThePixelBudget() async throws {
        let huge = try Media.progressiveJPEG(10000, 9990)
        let small = try Media.jpeg(320, 240)
        try await TestServer.withAPI({ $0.files.thumbnailTimeLimitSeconds = 30 }) { api in
            let users = try await api.cast("thumbfair", 2)
            let url = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let before = ProcessMemory.peakResidentBytes(reset: true)
            let withThumbnails = Count()
            try await api.withConnections(7) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for n in 0..<6 {
                        group.addTask {
                            let sent = try await clients[n].upload(
                                url, ["thumbnail1": "2048x2048", "thumbnail2": "200x200"],
                                file: FormFile(fileName: "huge.jpg", contentType: "image/jpeg", bytes: huge), as: users.session(0))
                            #expect(sent.status == 201, "\(sent.text)")
                            if !(try sent.decode(MessageBody.self).thumbnails ?? []).isEmpty { withThumbnails.value.withLock { $0 += 1 } }
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(1))
                        let sent = try await clients[6].upload(
                            url, ["thumbnail1": "100x100"], file: FormFile(contentType: "image/jpeg", bytes: small), as: users.session(1))
                        #expect(try sent.decode(MessageBody.self).thumbnails?.count == 1, "\(sent.text)")
                    }
                    try await group.waitForAll()
                }
            }
            let growth = ProcessMemory.peakResidentBytes() - before
            let made = withThumbnails.value.withLock { $0 }
            print("thumbnail budget: \(made) of 6 huge images thumbnailed; peak RSS growth \(growth >> 20) MiB")
            #expect(made >= 1, "the budget still lets them through, one at a time")
            // One decode is about 350 MB; four at once (the file threads, before) passed 1.3 GB.
            #expect(growth < 800 << 20, "peak RSS grew \(growth >> 20) MiB")
        }
    }
}
