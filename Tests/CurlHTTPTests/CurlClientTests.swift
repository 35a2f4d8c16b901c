import CurlHTTP
import Foundation
import Testing

/// CurlHTTP against a real local server: answers, limits, timeouts, cancellation, redirects,
/// and no easy handle left behind.
@Suite(.serialized) struct CurlClientTests {
    let client = CurlClient()

    @Test func getsAndPostsWithHeadersAndBodies() async throws {
        try await withLocalServer(testRoutes()) { port in
            let hello = try await client.send(.init(.get, "http://127.0.0.1:\(port)/hello"))
            #expect(hello.status == 200)
            #expect(hello.text == "hello")
            #expect(hello.header("content-length") == "5")
            // A body over 1 KiB (libcurl would wait for a 100 Continue without "Expect:").
            let body = Array(repeating: UInt8(ascii: "b"), count: 5000)
            let echoed = try await client.send(
                .init(.post, "http://127.0.0.1:\(port)/echo", headers: [("Content-Type", "text/plain"), ("X-Probe", "p1")], body: body))
            #expect(echoed.status == 200)
            #expect(echoed.body == body)
            #expect(echoed.header("x-probe") == "p1")
            #expect(echoed.header("Content-Type") == "text/plain")
            let missing = try await client.send(.init(.get, "http://127.0.0.1:\(port)/nothing-here"))
            #expect(missing.status == 404)
        }
        client.shutdown()
    }

    @Test func aLongerAnswerThanTheCapAbortsTheTransfer() async throws {
        try await withLocalServer(testRoutes()) { port in
            let fits = try await client.send(.init(.get, "http://127.0.0.1:\(port)/sized/1000", maxResponseBytes: 1000))
            #expect(fits.body.count == 1000)
            // Announced with Content-Length: refused before the body is read.
            await #expect(throws: OutboundError.responseTooLarge(limit: 1000)) {
                try await client.send(.init(.get, "http://127.0.0.1:\(port)/sized/1001", maxResponseBytes: 1000))
            }
            // Unannounced and endless: cut off at the cap.
            let started = ContinuousClock.now
            await #expect(throws: OutboundError.responseTooLarge(limit: 1 << 20)) {
                try await client.send(.init(.get, "http://127.0.0.1:\(port)/endless", maxResponseBytes: 1 << 20))
            }
            #expect(ContinuousClock.now - started < .seconds(5))
        }
        client.shutdown()
    }

    @Test func aSlowAnswerTimesOutAndARefusedConnectionFailsAtOnce() async throws {
        try await withLocalServer(testRoutes()) { port in
            await #expect(throws: OutboundError.timedOut) {
                try await client.send(.init(.get, "http://127.0.0.1:\(port)/slow/2000", timeout: .milliseconds(300)))
            }
            // Nothing listens on port 9 (discard) here.
            do {
                _ = try await client.send(.init(.get, "http://127.0.0.1:9/", connectTimeout: .seconds(2)))
                Issue.record("a refused connection answered")
            } catch let error as OutboundError {
                guard case .couldNotConnect = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
        }
        client.shutdown()
    }

    /// A listener that never accepts, its queue full: the handshake never completes, and the
    /// connect timeout ends the request long before the total one.
    @Test func aConnectionThatIsNeverAcceptedHitsTheConnectTimeout() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        #expect(listen(listener, 0) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue (Linux keeps backlog + 1 completed connections).
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(filler)
        }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        await #expect(throws: OutboundError.timedOut) {
            try await client.send(.init(.get, "http://127.0.0.1:\(port)/", connectTimeout: .milliseconds(300), timeout: .seconds(20)))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        client.shutdown()
    }

    @Test func cancellingTheCallerEndsTheTransferAtOnce() async throws {
        try await withLocalServer(testRoutes()) { port in
            let request = Task { try await client.send(.init(.get, "http://127.0.0.1:\(port)/slow/3000", timeout: .seconds(30))) }
            try await Task.sleep(for: .milliseconds(200))
            let started = ContinuousClock.now
            request.cancel()
            await #expect(throws: CancellationError.self) { try await request.value }
            #expect(ContinuousClock.now - started < .seconds(2))
            // Cancelled before it was sent.
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(.init(.get, "http://127.0.0.1:\(port)/hello"))
            }
            await #expect(throws: CancellationError.self) { try await early.value }
            // The client goes on serving.
            #expect(try await client.send(.init(.get, "http://127.0.0.1:\(port)/hello")).status == 200)
        }
        client.shutdown()
    }

    @Test func redirectsAreOffUnlessAskedForAndOnlyHTTPIsSpoken() async throws {
        try await withLocalServer(testRoutes()) { port in
            let hop = try await client.send(.init(.get, "http://127.0.0.1:\(port)/redirect"))
            #expect(hop.status == 302)
            #expect(hop.header("location") == "/hello")
            let followed = try await client.send(.init(.get, "http://127.0.0.1:\(port)/redirect", maxRedirects: 3))
            #expect(followed.status == 200)
            #expect(followed.text == "hello")
            // Followed redirects stay on http and https too.
            await #expect(throws: OutboundError.self) {
                try await client.send(.init(.get, "http://127.0.0.1:\(port)/redirect-to-file", maxRedirects: 3))
            }
            for url in ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/", "dict://127.0.0.1:\(port)/"] {
                do {
                    _ = try await client.send(.init(.get, url))
                    Issue.record("\(url) was fetched")
                } catch let error as OutboundError {
                    guard case .invalidURL = error else {
                        Issue.record("\(url): unexpected \(error)")
                        continue
                    }
                }
            }
        }
        client.shutdown()
    }

    @Test func aPinnedHostConnectsToTheCheckedAddress() async throws {
        try await withLocalServer(testRoutes()) { port in
            let pin = OutboundRequest.Pin(host: "pinned.invalid", port: port, address: "127.0.0.1")
            let answer = try await client.send(.init(.get, "http://pinned.invalid:\(port)/hello", pins: [pin]))
            #expect(answer.text == "hello")
        }
        client.shutdown()
    }

    /// Every path frees its handle: 10,000 requests (answers, 404s, caps, timeouts,
    /// cancellations), then none alive.
    @Test func tenThousandRequestsLeaveNoHandleBehind() async throws {
        try await withLocalServer(testRoutes()) { port in
            let base = "http://127.0.0.1:\(port)"
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<50 {
                    group.addTask {
                        for index in 0..<200 {
                            switch (worker + index) % 10 {
                            case 0: _ = try? await client.send(.init(.get, "\(base)/sized/2000", maxResponseBytes: 1000))
                            case 1: _ = try await client.send(.init(.get, "\(base)/nothing"))
                            case 2:
                                let task = Task { try await client.send(.init(.get, "\(base)/slow/1000")) }
                                task.cancel()
                                _ = try? await task.value
                            case 3: _ = try? await client.send(.init(.get, "\(base)/slow/200", timeout: .milliseconds(20)))
                            default:
                                #expect(try await client.send(.init(.post, "\(base)/echo", body: Array("\(index)".utf8))).status == 200)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // The loop thread frees a handle just after it resumes the handle's caller.
            var live = client.liveHandles
            for _ in 0..<100 where live > 0 {
                try await Task.sleep(for: .milliseconds(10))
                live = client.liveHandles
            }
            #expect(live == 0)
            // The process's resident memory is not asserted here: every suite of the test run
            // shares the process, in parallel. scripts/bench/translation reports it for a client
            // alone (parley-curl-bench's rss_growth_mb).
        }
        client.shutdown()
    }
}
