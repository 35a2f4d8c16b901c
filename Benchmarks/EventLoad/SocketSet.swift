import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// Many event-stream sockets of one process on NIO's event loops, opened a window at a time and
/// closed together.
///
/// Each socket is SwiftNIO's WebSocket client (the codec hummingbird-websocket's client is built
/// on) with a channel handler that reads each frame on the event loop where it arrives. Not
/// hummingbird-websocket's client itself: its async inbound stream costs a task switch and an
/// actor hop per frame, about 17 µs of CPU a frame on this machine, which made the client, not
/// the server, the bottleneck of the fan-out benchmark on two cores.
///
/// A frame is looked at as bytes, never parsed as JSON: a benchmark message carries
/// `evtbench:SEQ:STAMP` in its text (STAMP the sender's `monotonicNanos()`), and finding that
/// marker is all a receipt needs, so the client's CPU stays small next to the server's.
final class SocketSet: Sendable {
    let port: Int
    let tokens: [String]
    /// How many benchmark messages there will be (their SEQ is below it); 0 when none are sent.
    let messageCount: Int
    /// Benchmark messages received so far, over all sockets: the sender waits for it to reach
    /// messageCount × sockets.
    let delivered = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let state = Mutex<Totals>(Totals())

    /// What the sockets received, summed as each one ends.
    struct Totals {
        var channels: [any Channel] = []
        var latencies: [UInt32] = []
        var frames = 0
        var messageEvents = 0
        var duplicates = 0
        var foreign = 0
        var missing = 0
        /// Per socket: benchmark messages received, and the most within one second (smart
        /// throttling of open channels caps what others' messages a socket gets per second).
        var perSocket: [(received: Int, maxPerSecond: Int)] = []
        var failedToOpen = 0
        var closedEarly = 0
        var closeCodes: [String: Int] = [:]
    }

    init(port: Int, tokens: [String], messageCount: Int) {
        self.port = port
        self.tokens = tokens
        self.messageCount = messageCount
    }

    var totals: Totals { state.withLock { $0 } }

    /// Opens every socket (at most `window` handshakes at a time, each done once its hello has
    /// arrived), runs `body` with them open, then closes them and waits until all have ended.
    /// Returns the seconds the opening took.
    func run(window: Int = 64, _ body: @Sendable (_ openSeconds: Double) async throws -> Void) async throws {
        let (opened, announce) = AsyncStream.makeStream(of: Bool.self)
        let started = monotonicNanos()
        var failure: (any Error)?
        await withDiscardingTaskGroup { group in
            var next = 0
            while next < min(window, tokens.count) {
                let token = tokens[next]
                group.addTask { await self.socket(token, announce) }
                next += 1
            }
            var answered = 0
            for await _ in opened {
                answered += 1
                if next < tokens.count {
                    let token = tokens[next]
                    group.addTask { await self.socket(token, announce) }
                    next += 1
                }
                if answered == tokens.count { break }
            }
            let failed = state.withLock { $0.failedToOpen }
            if failed > 0 {
                failure = LoadError("\(failed) of \(tokens.count) sockets did not open: \(state.withLock { $0.closeCodes })")
            } else {
                do {
                    try await body(Double(monotonicNanos() - started) / 1e9)
                } catch {
                    failure = error
                }
            }
            stop()
        }
        if let failure { throw failure }
    }

    /// Asks every open socket to close (the server answers the close frame and ends it).
    private func stop() {
        stopping.store(true, ordering: .relaxed)
        for channel in state.withLock({ $0.channels }) {
            channel.eventLoop.execute {
                var code = ByteBuffer()
                code.write(webSocketErrorCode: .normalClosure)
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code), promise: nil)
            }
        }
    }

    private func socket(_ token: String, _ announce: AsyncStream<Bool>.Continuation) async {
        let handler = FrameHandler(set: self, messageCount: messageCount, announce: announce)
        var closeCode = "none"
        do {
            let channel = try await connect(token, handler)
            state.withLock { $0.channels.append(channel) }
            closeCode = try await handler.ended.futureResult.get()
        } catch {
            closeCode = "\(error)"
        }
        let announced = handler.announced.load(ordering: .relaxed)
        let stopped = stopping.load(ordering: .relaxed)
        if !announced || !stopped {
            state.withLock { totals in
                if announced { totals.closedEarly += 1 } else { totals.failedToOpen += 1 }
                totals.closeCodes[closeCode, default: 0] += 1
            }
        }
        if !announced { announce.yield(false) }
    }

    /// Connects and upgrades; the handler then has the socket.
    private func connect(_ token: String, _ handler: FrameHandler) async throws -> any Channel {
        let upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<(any Channel)?>(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(handler)
                            return channel
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(self.port)")
                    headers.add(name: "Session-Token", value: token)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<(any Channel)?>(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v3/events", headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { nil } }
                    )
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    // The hello often arrives in the same read as the 101; NIO drops such bytes by default.
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                }
            }
        guard let channel = try await upgraded.get() else { throw LoadError("the server refused the upgrade") }
        return channel
    }

    func add(_ receiver: Receiver) {
        state.withLock { receiver.add(to: &$0) }
    }

    static let helloPrefix = Array(#"{"type":"hello""#.utf8)
}
