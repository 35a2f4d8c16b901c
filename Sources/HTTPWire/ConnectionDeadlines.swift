import Hummingbird
import NIOCore
import NIOHTTPTypes

/// The deadlines of one HTTP/1 connection, kept by its two handlers on its event loop: a request
/// must arrive within `idle`, its header within `header` of its first byte, each piece of its
/// body within `bodyProgress` of the last; a connection that misses one is closed.
final class ConnectionDeadlines {
    enum Phase {
        /// No request in progress.
        case idle
        /// Bytes of a request arrived; its header is not complete.
        case readingHeader
        /// The header arrived; the body is still coming.
        case readingBody
        /// The request was read; the answer is being made (no deadline: that is the server's job,
        /// and its statements have timeouts of their own).
        case responding
        /// Answered before the body was read: the rest is dropped until the linger time ends.
        case lingering
    }

    let timeouts: HTTPTimeouts
    private(set) var phase = Phase.idle
    private var deadline: NIODeadline?
    /// Request bytes that arrived while a response was being made (a pipelined request).
    private var bytesWaiting = false
    /// Requests whose header was read and whose response is not complete (more than one when
    /// the client pipelines).
    private var unanswered = 0
    private var timer: Scheduled<Void>?
    private var scheduledAt: NIODeadline?
    private var channel: (any Channel)?

    init(timeouts: HTTPTimeouts) {
        self.timeouts = timeouts
    }

    func start(_ context: ChannelHandlerContext) {
        channel = context.channel
        move(to: .idle, context.eventLoop)
    }

    func stop() {
        timer?.cancel()
        timer = nil
        scheduledAt = nil
        channel = nil
    }

    /// Raw bytes arrived (before HTTP decoding).
    func bytesArrived(_ eventLoop: any EventLoop) {
        switch phase {
        case .idle: move(to: .readingHeader, eventLoop)
        case .responding: bytesWaiting = true
        case .readingHeader, .readingBody, .lingering: break
        }
    }

    func read(_ part: HTTPRequestPart, _ eventLoop: any EventLoop) {
        switch part {
        case .head:
            unanswered += 1
            if phase != .lingering { move(to: .readingBody, eventLoop) }
        case .body:
            if phase == .readingBody { deadline = .now() + TimeAmount(timeouts.bodyProgress) }
        case .end:
            bytesWaiting = false
            if phase != .lingering { move(to: .responding, eventLoop) }
        }
    }

    /// Whether the response about to start is sent before its request's body was read (and not
    /// while a pipelined request's body arrives); the connection then closes after it.
    var answersEarly: Bool { phase == .readingBody && unanswered == 1 }

    func wroteResponseEnd(_ eventLoop: any EventLoop) {
        unanswered = max(0, unanswered - 1)
        guard unanswered == 0 else { return }
        switch phase {
        case .readingBody: move(to: .lingering, eventLoop)
        case .responding: move(to: bytesWaiting ? .readingHeader : .idle, eventLoop)
        case .idle, .readingHeader, .lingering: break
        }
        bytesWaiting = false
    }

    private func move(to phase: Phase, _ eventLoop: any EventLoop) {
        self.phase = phase
        switch phase {
        case .idle: deadline = .now() + TimeAmount(timeouts.idle)
        case .readingHeader: deadline = .now() + TimeAmount(timeouts.header)
        case .readingBody: deadline = .now() + TimeAmount(timeouts.bodyProgress)
        case .lingering: deadline = .now() + TimeAmount(timeouts.linger)
        case .responding: deadline = nil
        }
        guard let fireAt = nextCheck() else { return }
        // A timer that fires soon enough looks at the deadline then.
        if timer != nil, let scheduledAt, fireAt >= scheduledAt { return }
        timer?.cancel()
        schedule(at: fireAt, eventLoop)
    }

    /// When the timer must look next: the deadline, or for an idle connection no later than a
    /// header timeout from now, since the first byte of a request may arrive at any moment and
    /// start the header's (shorter) clock without touching the timer.
    private func nextCheck() -> NIODeadline? {
        guard let deadline else { return nil }
        return phase == .idle ? min(deadline, .now() + TimeAmount(timeouts.header)) : deadline
    }

    /// One timer per connection at most, moved only when a deadline comes closer: a busy
    /// connection does not schedule a task per request.
    private func schedule(at fireAt: NIODeadline, _ eventLoop: any EventLoop) {
        scheduledAt = fireAt
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: fireAt) { [self] in
            timer = nil
            scheduledAt = nil
            guard let deadline else { return }
            if deadline <= .now() {
                channel?.close(promise: nil)
            } else if let next = nextCheck() {
                schedule(at: next, eventLoop)
            }
        }
    }
}

/// First in the pipeline: notices the first bytes of a request, which the HTTP decoder keeps to
/// itself until the header is complete. It owns the connection's deadlines from the start (the
/// HTTP codec arrives only once the first request is known not to be an upgrade).
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    static let name = "parley-request-bytes"
    let deadlines: ConnectionDeadlines

    init(deadlines: ConnectionDeadlines) {
        self.deadlines = deadlines
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { deadlines.start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        deadlines.start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadlines.stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadlines.stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived(context.eventLoop)
        context.fireChannelRead(data)
    }
}

/// After the HTTP codec: follows requests and responses through their phases, and marks a
/// response sent before its request's body was read `Connection: close`.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    /// The watcher's, found when the codec and this handler are added behind it.
    private var deadlines: ConnectionDeadlines!

    func handlerAdded(context: ChannelHandlerContext) {
        // The server always adds the watcher first (GuardedHTTP1Channel); without it this is a
        // programming error, not a request to survive.
        guard let watcher = try? context.pipeline.syncOperations.handler(type: RequestBytesWatcher.self) else {
            preconditionFailure("RequestDeadlineHandler needs a RequestBytesWatcher ahead of it")
        }
        deadlines = watcher.deadlines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.read(unwrapInboundIn(data), context.eventLoop)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After a response marked `Connection: close` nothing more is sent: draining the rest of
        // the body may end in a parse error (the client hangs up), which Hummingbird would
        // otherwise answer with a second response the client no longer expects.
        if deadlines.phase == .lingering {
            promise?.succeed()
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head) where deadlines.answersEarly && head.status.code >= 200:
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            context.write(data, promise: promise)
            deadlines.wroteResponseEnd(context.eventLoop)
        default:
            context.write(data, promise: promise)
        }
    }
}
