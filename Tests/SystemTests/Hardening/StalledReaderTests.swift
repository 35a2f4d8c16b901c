import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 29.1: the widest history window of the largest messages is bounded, and clients that
/// ask for it and never read the answer hold what that answer costs, and no more. Measured as this process's (the
/// server's) resident memory; the suite runs with the process suites (`scripts/test`), so that no
/// in-process suite beside it moves the figure.
@Suite(.serialized) struct StalledReaderTests {
    @Test func theWidestWindowIsBoundedAndTenStalledOnesHoldTensOfMegabytes() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("stalled", 1)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            let base = "/v3/group_channels/\(channel)/messages"
            let data = String(repeating: "\"", count: 65_535)
            try await api.withConnections(8) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask {
                            for round in 0..<25 {
                                _ = try await client.post(base, ["user_id": cast[0], "message": "\(index)-\(round)", "data": data])
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // With the default budget (4 MiB), the widest window (200 + 200) of the largest
            // messages (65,535 bytes of quotes, written twice that) answers about 4 MB; 200 of
            // them made 26 MB before.
            let window = try await api.get("\(base)?message_ts=\(Int64.max)&prev_limit=200&next_limit=200", as: cast.session(0))
            let count = (window.rawJSON["messages"] as? [Any])?.count ?? 0
            print("history bound: \(count) of 200 messages, \(window.text.utf8.count) bytes")
            #expect(window.text.utf8.count < 9 << 20, "\(window.text.utf8.count) bytes")
            #expect(count >= 30, "the budget still holds a useful page: \(count)")

            let token = cast.tokens[cast[0]]!
            let before = ProcessMemory.residentBytes()
            var stalled: [RawConnection] = []
            for _ in 0..<10 {
                let connection = try api.connection()
                connection.send(
                    "GET \(base)?message_ts=\(Int64.max)&prev_limit=200&next_limit=200 HTTP/1.1\r\nHost: localhost\r\n"
                        + "Session-Token: \(token)\r\n\r\n")
                stalled.append(connection)
            }
            try await Task.sleep(for: .seconds(5))
            let growth = ProcessMemory.residentBytes() - before
            print("stalled readers: 10 windows unread, resident memory grew \(growth >> 20) MiB")
            // Each answer is about 4 MB now (it was 26 MB, and 169 MB with control characters).
            #expect(growth < 120 << 20, "grew \(growth >> 20) MiB")
            // Someone else is served meanwhile.
            #expect(try await api.get("/v3/users/\(cast[0])").status == 200)
            stalled.forEach { $0.hangUp() }
        }
    }
}
