import Foundation
import HTTPWire
import NIOCore
import NIOWebSocket
import OwnedTasks
import ParleyCore
import ParleyEvents
import Synchronization

/// One event-stream socket's outbound side: renders each delivery and writes it straight onto
/// the connection's socket (`WireWriter`), on its event loop, batched per loop (`LoopWriteBatch`).
///
/// Why not an async writer: each write would be a hop onto the event loop, and a socket would
/// need a task of its own waiting to make it. With a thousand sockets in a channel that was most
/// of the server's CPU per message (scripts/bench/events). Close frames go through the socket's
/// `StreamCloser`, which tracks the handshake; nothing is written after one.
///
/// Pings, silent peers and session expiry are looked at by the event loop's `LoopSweeper` (not
/// a task or a timer per socket): a ping every `pingInterval`, and a peer silent for
/// `silenceLimit` (no pong, no frame) is dropped (API.md §6.1).
///
/// A client that stops reading fills the kernel's buffers, then NIO's; past `socketQueueLimit`
/// live deliveries over the channel's high watermark, or `socketQueueBytes` bytes held in NIO
/// (`OutboundBacklog`), or as many waiting in the loop's batch (`waiting`), the socket is closed
/// as too slow (4009): bounded memory, and the client resumes with `after`.
final class EventSocket: DeliverySink, Sendable {
    private let channel: any Channel
    private let wire: WireWriter
    private let batch: LoopWriteBatch
    /// Touched on the channel's event loop only.
    private let closer: StreamCloser
    /// Bytes of this socket's frames in the loop's batch, not yet handed to NIO: a replay is
    /// rendered whole before the loop writes any of it. Added to by the hub's tasks, taken from on
    /// the loop. Past `byteLimit` the frame is dropped and never taken off again, so every later
    /// one is dropped too (and not rendered), and the socket closes as too slow.
    private let waiting = Atomic<Int>(0)
    private let byteLimit: Int
    private let render: @Sendable (SharedEvent) -> ByteBuffer
    private let checkSession: @Sendable () async -> Bool
    /// Runs the session checks.
    private let tasks: TaskOwner
    private let pingInterval: TimeAmount
    private let silenceLimit: TimeAmount
    /// Touched on the channel's event loop only (the lock is uncontended).
    private let loop: Mutex<LoopState>

    private struct LoopState {
        var backlog: OutboundBacklog
        /// Frames written and not yet flushed (see `LoopWriteBatch`).
        var unflushed = false
        var lastPing = NIODeadline.now()
        /// When the session token expires, if it does.
        var expiresAt: NIODeadline?
    }

    /// - Parameters:
    ///   - wire: in the channel's pipeline already.
    ///   - render: an event's encoded frame (`WireFrames`) as this socket's user reads it.
    ///   - checkSession: whether the socket's session is still valid (false closes it with 4001).
    init(
        channel: any Channel, wire: WireWriter, closer: StreamCloser, settings: EventSettings,
        render: @escaping @Sendable (SharedEvent) -> ByteBuffer, checkSession: @escaping @Sendable () async -> Bool,
        tasks: TaskOwner
    ) {
        self.tasks = tasks
        self.channel = channel
        self.wire = wire
        self.batch = LoopWriteBatch.of(channel.eventLoop)
        self.closer = closer
        self.byteLimit = settings.socketQueueBytes
        self.loop = Mutex(LoopState(backlog: OutboundBacklog(frameLimit: settings.socketQueueLimit, byteLimit: settings.socketQueueBytes)))
        self.pingInterval = .nanoseconds(settings.pingInterval.nanoseconds)
        self.silenceLimit = .nanoseconds(settings.silenceLimit.nanoseconds)
        self.render = render
        self.checkSession = checkSession
    }

    /// Starts the pings (the hello is sent by then, so the first ping follows it), and the
    /// closing of the socket when its session token expires, if it does (`expiresAt`, ms).
    func start(expiresAt: Int64?) {
        // Often enough to drop a silent peer soon after its limit; a look is a few comparisons.
        let look = TimeAmount.nanoseconds(min(pingInterval.nanoseconds, silenceLimit.nanoseconds) / 6)
        let expiry = expiresAt.map {
            NIODeadline.now() + .milliseconds(max(0, $0 - Int64(Date.now.timeIntervalSince1970 * 1000)))
        }
        channel.eventLoop.execute { [self] in
            wire.startListening()
            loop.withLock { $0.expiresAt = expiry }
            // A connection that ended meanwhile has had its `stop()`: nothing to look at.
            guard channel.isActive else { return }
            LoopSweeper.of(channel.eventLoop).add(self, every: look)
        }
    }

    /// The socket is done: its looks stop.
    func stop() {
        LoopSweeper.of(channel.eventLoop).remove(self)
    }

    /// From the loop's sweeper, on the event loop.
    func look(at now: NIODeadline) {
        guard !closer.isClosing else { return }
        if let expiry = loop.withLock({ $0.expiresAt }), now >= expiry {
            closer.close(StreamCloseCode.unauthorized, reason: "The session token expired")
            return
        }
        if now - wire.lastHeard >= silenceLimit {
            closer.close(1001, reason: "No answer to pings", within: .zero)
            return
        }
        let due = loop.withLock { state in
            guard now - state.lastPing >= pingInterval else { return false }
            state.lastPing = now
            return true
        }
        if due { wire.writeAndFlush(WireFrames.ping) }
    }

    func send(_ delivery: Delivery, replayed: Bool) {
        switch delivery {
        case .hello(let hello): write(WireFrames.text(EventFrames.hello(hello)), counted: false)
        case .event(let shared): write(render(shared), counted: !replayed)
        case .typing(let change): write(WireFrames.text(EventFrames.typing(change)), counted: !replayed)
        case .unread(let change): write(WireFrames.text(EventFrames.unread(change)), counted: !replayed)
        case .resyncRequired: write(WireFrames.text(EventFrames.resyncRequired()), counted: false)
        case .checkSession:
            tasks.spawn("checking a socket's session") { [self] in
                if await !checkSession() { close(StreamCloseCode.unauthorized, reason: "The session ended") }
            }
        case .close(let code, let reason): close(code, reason: reason)
        }
    }

    /// A frame answering one of the client's (an error).
    func reply(_ payload: ByteBuffer) {
        write(WireFrames.text(payload), counted: false)
    }

    /// Sends a close frame after what was written so far, and nothing after it.
    func close(_ code: UInt16, reason: String) {
        channel.eventLoop.execute { [self] in closer.close(code, reason: reason) }
    }

    /// Queues the frame in the loop's batch, unless this socket already has `byteLimit` bytes
    /// waiting there (then it is not rendered).
    private func write(_ make: @autoclosure () -> ByteBuffer, counted: Bool) {
        guard waiting.load(ordering: .relaxed) <= byteLimit else { return }
        let frame = make()
        let (before, after) = waiting.add(frame.readableBytes, ordering: .relaxed)
        guard after > byteLimit else { return batch.enqueue(frame, to: self, counted: counted) }
        if before <= byteLimit { channel.eventLoop.execute { [self] in closeAsTooSlow() } }
    }

    /// On the event loop, from `LoopWriteBatch`: writes the frame unless the socket is closing,
    /// or closes it as too slow; `flushIfWritten` sends what was written.
    func writeWithoutFlush(_ frame: ByteBuffer, counted: Bool) {
        let size = frame.readableBytes
        waiting.subtract(size, ordering: .relaxed)
        guard !closer.isClosing else { return }
        let writable = channel.isWritable
        var verdict = loop.withLock { state in
            let verdict = state.backlog.admit(size, counted: counted, writable: writable)
            if verdict == .write { state.unflushed = true }
            return verdict
        }
        if verdict == .measure {
            // Over the bound by the estimate: send what was written, and see what is still held.
            wire.flush()
            let buffered = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
            verdict = loop.withLock { state in
                let verdict = state.backlog.measured(buffered: buffered, size: size)
                // The flush sent all before this frame.
                state.unflushed = verdict == .write
                return verdict
            }
        }
        switch verdict {
        case .write: wire.write(frame)
        case .measure, .tooSlow: closeAsTooSlow()
        }
    }

    /// On the event loop. The close frame waits behind what the client has not read, so it gets
    /// a moment; then the connection goes, and with it every frame NIO held for it.
    private func closeAsTooSlow() {
        guard !closer.isClosing else { return }
        EventMetrics.slowSocketCloses.increment()
        closer.close(StreamCloseCode.tooSlow, reason: "Too slow: reconnect with after", within: .seconds(2))
    }

    func flushIfWritten() {
        let due = loop.withLock { state in
            defer { state.unflushed = false }
            return state.unflushed
        }
        if due { wire.flush() }
    }
}
