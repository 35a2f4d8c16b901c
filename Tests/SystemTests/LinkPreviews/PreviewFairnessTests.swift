import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// Issue 29: one user posting many links to a slow page cannot starve others' previews. The
/// slow page answers after 6 s; before the fix every preview was a task of its own, the flood
/// filled libcurl's connections to the host and an unrelated user's preview waited behind it.
@Suite struct PreviewFairnessTests {
    /// `/slow/N` answers after `slowness`, `/fast` at once; both are pages with a title.
    final class Pages: Sendable {
        let slowHits = Mutex(0)
        static let slowness = Duration.seconds(6)

        func run(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
            let router = Router()
            router.get("slow/{n}") { _, _ -> Response in
                self.slowHits.withLock { $0 += 1 }
                try await Task.sleep(for: Self.slowness)
                return Self.html("Slow")
            }
            router.get("fast") { _, _ in Self.html("Fast") }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in try await body(client.port!) }
        }

        static func html(_ title: String) -> Response {
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><head><title>\(title)</title></head></html>")))
        }
    }

    @Test func anotherUsersPreviewIsNotStarvedByAFloodOfSlowLinks() async throws {
        let pages = Pages()
        try await pages.run { port in
            try await TestServer.withAPI({ $0.linkPreviews.allowHosts = ["127.0.0.1:\(port)"] }) { api in
                let cast = try await api.cast("ogfair", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let base = "/v3/group_channels/\(channel)/messages"
                let flood = 100
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for n in 0..<flood {
                        group.addTask {
                            let sent = try await api.post(base, ["message": "http://127.0.0.1:\(port)/slow/\(n)"], as: cast.session(0))
                            #expect(sent.status == 201, "\(sent.text)")
                        }
                    }
                    try await group.waitForAll()
                }
                let sent = try await api.post(base, ["message": "http://127.0.0.1:\(port)/fast"], as: cast.session(1))
                let id = try #require(sent.rawJSON["message_id"] as? Int)
                let started = ContinuousClock.now
                // The flood's pages take 6 s each: a preview within 4 s did not wait behind them.
                let previewed = try await eventually(within: .seconds(4)) {
                    let tag = try await api.get("\(base)/\(id)", as: cast.session(1)).rawJSON["og_tag"] as? [String: Any]
                    return tag?["og:title"] as? String == "Fast"
                }
                #expect(previewed, "waited \(ContinuousClock.now - started)")
                // The flooding user's previews past the per-user limit (10) were dropped, not queued
                // (a few more may have come in as the first finished, if the sends took over 6 s);
                // before, libcurl had 32 of them in flight to the host.
                #expect(pages.slowHits.withLock { $0 } <= 20)
            }
        }
    }
}
