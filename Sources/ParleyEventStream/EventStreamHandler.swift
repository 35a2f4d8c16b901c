import Foundation
import HTTPWire
import NIOCore
import NIOWebSocket
import OwnedTasks
import ParleyEvents

/// One event-stream socket once upgraded (API.md §6.1), as a handler on the channel's event
/// loop: it reads the client's frames (answering pings and the closing handshake itself), and
/// hands the work that needs the database to tasks that end when it is done (authenticating,
/// registering the socket, a client frame's typing or enter).
///
/// Why not hummingbird-websocket's handler: it keeps a task suspended for every socket's life,
/// and a task keeps every slab of async frames it ever needed; with its task group, inbound
/// stream and the HTTP connection's frames beneath, that was 19 KB of an idle socket's 30 KB
/// (heaptrack, scripts/bench/events: 307 MB for 10,000 idle sockets). An idle socket here is
/// its NIO channel and handlers, and no task.
final class EventStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame

    private enum Phase {
        /// A browser: the first frame authenticates, before the deadline.
        case awaitingAuth(Scheduled<Void>?)
        case opening
        case open(EventStreamController.OpenStream)
        case ended
    }

    private let controller: EventStreamController
    private let wire: WireWriter
    private let closer: StreamCloser
    private var token: String?
    /// The client's address, for the failed authentications it may make.
    private let address: String
    private var after: Int64?
    private let afterIsValid: Bool
    private var phase = Phase.awaitingAuth(nil)
    /// The text message being received, fragment by fragment.
    private var text: ByteBuffer?
    private var rules = ClientFrameRules()
    /// Client messages waiting for the stream to open or for the one being handled: handled one
    /// at a time, in order (a typing start before its end).
    private var pending: [String] = []
    private var isHandling = false
    /// Set when the handler is added; the loop its tasks come back to.
    private var channel: (any Channel)!

    /// More client messages than this waiting is a client not waiting for answers.
    static let pendingLimit = 32

    /// - Parameters:
    ///   - query: the upgrade request's query (`after=…`).
    init(controller: EventStreamController, wire: WireWriter, closer: StreamCloser, token: String?, query: Substring?, address: String) {
        self.controller = controller
        self.address = address
        self.wire = wire
        self.closer = closer
        self.token = token
        var after: Int64? = nil
        var afterIsValid = true
        for pair in (query ?? "").split(separator: "&") where pair.hasPrefix("after=") {
            let value = Int64(pair.dropFirst("after=".count))
            afterIsValid = (value ?? -1) >= 0
            after = value
        }
        self.after = after
        self.afterIsValid = afterIsValid
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        guard afterIsValid else {
            return closer.close(StreamCloseCode.badFrame, reason: "after must be an event id")
        }
        if token != nil { return beginOpening() }
        let deadline = context.eventLoop.scheduleTask(in: .nanoseconds(controller.realtime.settings.authTimeout.nanoseconds)) {
            [closer] in closer.close(StreamCloseCode.unauthorized, reason: "No auth frame")
        }
        phase = .awaitingAuth(deadline)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // RFC 6455 §5.1: a client masks every frame.
        guard frame.maskKey != nil else {
            return closer.close(WebSocketErrorCode.protocolError.code, reason: "Client frames must be masked")
        }
        if let violation = rules.violation(frame) {
            text = nil
            return closer.close(WebSocketErrorCode.protocolError.code, reason: violation)
        }
        switch frame.opcode {
        case .connectionClose:
            closer.peerClosed(answer: ClientFrameRules.closeAnswer(frame.unmaskedData))
        case .ping where !closer.isClosing:
            wire.writeAndFlush(WireFrames.pong(frame.unmaskedData))
        case .text:
            text = frame.unmaskedData
            received(frame.fin)
        case .continuation where text != nil:
            var fragment = frame.unmaskedData
            text!.writeBuffer(&fragment)
            received(frame.fin)
        default:
            // Binary messages and what follows them are not part of the protocol: skipped.
            text = nil
        }
    }

    /// A text fragment arrived: a whole message is passed on, one too long closes the socket.
    private func received(_ fin: Bool) {
        guard let message = text else { return }
        guard message.readableBytes <= EventStreamController.maxInboundMessage else {
            text = nil
            return closer.close(WebSocketErrorCode.messageTooLarge.code, reason: "")
        }
        guard fin, !closer.isClosing else { return }
        text = nil
        let string = String(buffer: message)
        switch phase {
        case .awaitingAuth(let deadline):
            deadline?.cancel()
            guard let frame = try? JSONDecoder().decode(AuthFrame.self, from: Data(string.utf8)), frame.type == "auth" else {
                phase = .ended
                return closer.close(StreamCloseCode.unauthorized, reason: "The first frame must authenticate")
            }
            token = frame.token
            if let frameAfter = frame.after { after = frameAfter }
            beginOpening()
        case .opening, .open:
            guard pending.count < Self.pendingLimit else {
                return closer.close(WebSocketErrorCode.policyViolation.code, reason: "Too many frames at once")
            }
            pending.append(string)
            handleNext()
        case .ended:
            break
        }
    }

    private func beginOpening() {
        phase = .opening
        let (controller, token, after, address, channel, wire, closer) = (controller, token, after, address, channel!, wire, closer)
        let this = NIOLoopBound(self, eventLoop: channel.eventLoop)
        controller.realtime.tasks.spawn("opening an event stream") {
            let opening = await controller.open(token: token, after: after, address: address, channel, wire, closer)
            channel.eventLoop.execute { this.value.opened(opening) }
        }
    }

    private func opened(_ opening: EventStreamController.Opening) {
        switch (opening, phase) {
        case (.refused(let code, let reason), _):
            phase = .ended
            closer.close(code, reason: reason)
        case (.opened(let stream), .ended):
            // The connection went while the stream opened.
            end(stream)
        case (.opened(let stream), _):
            phase = .open(stream)
            handleNext()
        }
    }

    /// Hands the next waiting client message to a task, once the one before it is done.
    private func handleNext() {
        guard case .open(let stream) = phase, !isHandling, !pending.isEmpty else { return }
        isHandling = true
        let (controller, text, loop) = (controller, pending.removeFirst(), channel.eventLoop)
        let this = NIOLoopBound(self, eventLoop: loop)
        controller.realtime.tasks.spawn("a client frame of an event stream") {
            let failure = await controller.handle(text, stream.caller)
            loop.execute {
                if let failure { stream.socket.reply(EventFrames.error(failure)) }
                this.value.isHandling = false
                this.value.handleNext()
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        switch phase {
        case .awaitingAuth(let deadline): deadline?.cancel()
        case .open(let stream): end(stream)
        case .opening, .ended: break
        }
        phase = .ended
        pending = []
        context.fireChannelInactive()
    }

    /// The socket is done: its timers stop, and its registration ends (the user may be offline).
    private func end(_ stream: EventStreamController.OpenStream) {
        stream.socket.stop()
        let realtime = controller.realtime
        realtime.tasks.spawn("closing an event stream") { await realtime.disconnect(stream.subscription) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            // The server is shutting down gracefully: clients reconnect elsewhere with `after`.
            closer.close(WebSocketErrorCode.goingAway.code, reason: "The server is going away: reconnect with after")
        case ChannelEvent.inputClosed:
            // The client went without a close frame (the server's channels allow half-closure,
            // so its end of the connection arrives as this event rather than a close).
            context.close(promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A protocol error (the decoder's handler has sent its close frame) or a failed socket.
        context.close(promise: nil)
    }
}
