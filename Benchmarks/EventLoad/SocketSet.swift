import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// Many event-stream sockets of one process, each a hummingbird-websocket client on NIO's event
/// loops, opened a window at a time and closed together.
///
/// A frame is looked at as bytes, never parsed as JSON: a benchmark message carries
/// `evtbench:SEQ:STAMP` in its text (STAMP the sender's `monotonicNanos()`), and finding that
/// marker is all a receipt needs, so the client's CPU stays small next to the server's.
final class SocketSet: Sendable {
    let url: String
    let tokens: [String]
    /// How many benchmark messages there will be (their SEQ is below it); 0 when none are sent.
    let messageCount: Int
    /// Benchmark messages received so far, over all sockets: the sender waits for it to reach
    /// messageCount × sockets.
    let delivered = Atomic<Int>(0)
    /// `message_received` frames so far, over all sockets: whether the deliveries of sends made
    /// by another program (wrk) have all arrived.
    let messageEvents = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let state = Mutex<Totals>(Totals())
    private let logger = Logger(label: "parley-event-load")

    /// What the sockets received, summed as each one ends.
    struct Totals {
        var writers: [WebSocketOutboundWriter] = []
        var latencies: [UInt32] = []
        var frames = 0
        var messageEvents = 0
        var duplicates = 0
        var foreign = 0
        var missing = 0
        var failedToOpen = 0
        var closedEarly = 0
        var closeCodes: [String: Int] = [:]
    }

    init(url: String, tokens: [String], messageCount: Int) {
        self.url = url
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
        let writers = state.withLock { $0.writers }
        for writer in writers {
            Task { try? await writer.close(.normalClosure, reason: nil) }
        }
    }

    private func socket(_ token: String, _ announce: AsyncStream<Bool>.Continuation) async {
        var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
        configuration.additionalHeaders[HTTPField.Name("Session-Token")!] = token
        let record = SocketRecord()
        var closeCode = "none"
        do {
            let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                var iterator = inbound.makeAsyncIterator()
                // The hello is the first frame: the socket is registered and live from then on.
                guard let hello = try await iterator.next(), hello.data.readableBytesView.starts(with: Self.helloPrefix) else { return }
                self.state.withLock { $0.writers.append(outbound) }
                record.announced.store(true, ordering: .relaxed)
                announce.yield(true)
                var receiver = Receiver(messageCount: self.messageCount)
                defer { self.state.withLock { receiver.add(to: &$0) } }
                while let frame = try await iterator.next() {
                    switch receiver.absorb(frame.data, at: monotonicNanos()) {
                    case .other: break
                    case .messageEvent: self.messageEvents.add(1, ordering: .relaxed)
                    case .newBenchmarkMessage:
                        self.messageEvents.add(1, ordering: .relaxed)
                        self.delivered.add(1, ordering: .relaxed)
                    }
                }
            }
            closeCode = close.map { "\($0.closeCode)" } ?? "none"
        } catch {
            closeCode = "\(error)"
        }
        let announced = record.announced.load(ordering: .relaxed)
        let stopped = stopping.load(ordering: .relaxed)
        if !announced || !stopped {
            state.withLock { totals in
                if announced { totals.closedEarly += 1 } else { totals.failedToOpen += 1 }
                totals.closeCodes[closeCode, default: 0] += 1
            }
        }
        if !announced { announce.yield(false) }
    }

    private static let helloPrefix = Array(#"{"type":"hello""#.utf8)
}

/// Whether a socket got as far as its hello.
private final class SocketRecord: Sendable {
    let announced = Atomic<Bool>(false)
}

/// One socket's receipts: which benchmark messages arrived (a bit each, to tell a duplicate),
/// and how long after their send.
private struct Receiver {
    var seen: [UInt64]
    var latencies: [UInt32] = []
    var frames = 0
    var messageEvents = 0
    var duplicates = 0
    var foreign = 0
    let messageCount: Int

    init(messageCount: Int) {
        self.messageCount = messageCount
        seen = Array(repeating: 0, count: (messageCount + 63) / 64)
        latencies.reserveCapacity(messageCount)
    }

    static let messageType = Array(#""type":"message_received""#.utf8)
    static let marker = Array("evtbench:".utf8)

    enum Receipt {
        case other
        case messageEvent
        /// A message event of a benchmark message this socket had not received before.
        case newBenchmarkMessage
    }

    /// Counts a frame and tells what it was.
    mutating func absorb(_ data: ByteBuffer, at now: UInt64) -> Receipt {
        frames += 1
        return data.withUnsafeReadableBytes { bytes -> Receipt in
            guard Self.find(Self.messageType, in: bytes) != nil else { return .other }
            messageEvents += 1
            guard var index = Self.find(Self.marker, in: bytes) else { return .messageEvent }
            let sequence = Self.number(in: bytes, at: &index)
            index += 1  // the colon
            let stamp = Self.number(in: bytes, at: &index)
            guard sequence < messageCount else {
                foreign += 1
                return .messageEvent
            }
            let (word, bit) = (sequence / 64, UInt64(1) << UInt64(sequence % 64))
            guard seen[word] & bit == 0 else {
                duplicates += 1
                return .messageEvent
            }
            seen[word] |= bit
            latencies.append(UInt32(min((now &- UInt64(stamp)) / 1000, UInt64(UInt32.max))))
            return .newBenchmarkMessage
        }
    }

    /// The offset just past `needle` in `bytes`, if it occurs.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var start = 0
        let last = bytes.count - needle.count
        while start <= last {
            // memchr to the next candidate, then compare the rest.
            guard let hit = memchr(bytes.baseAddress! + start, Int32(first), last - start + 1) else { return nil }
            let offset = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if needle.withUnsafeBytes({ memcmp(bytes.baseAddress! + offset, $0.baseAddress!, needle.count) }) == 0 {
                return offset + needle.count
            }
            start = offset + 1
        }
        return nil
    }

    private static func number(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int {
        var value = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            value = value * 10 + Int(bytes[index] - 48)
            index += 1
        }
        return value
    }

    func add(to totals: inout SocketSet.Totals) {
        totals.latencies.append(contentsOf: latencies)
        totals.frames += frames
        totals.messageEvents += messageEvents
        totals.duplicates += duplicates
        totals.foreign += foreign
        totals.missing += messageCount - latencies.count
    }
}
