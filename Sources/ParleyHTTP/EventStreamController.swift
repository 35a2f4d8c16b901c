import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import ParleyChat
import ParleyCore
import ParleyEvents
import ParleyUsers

/// The context of the event stream's upgrade request: it keeps the connection, whose HTTP
/// deadlines the stream leaves behind once upgraded.
public struct EventStreamContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket = WebSocketHandlerReference<Self>()
    /// Weak: hummingbird-websocket 2.8.1's handler reference and the context it is stored in
    /// refer to each other; `releaseHandlerReference` breaks that cycle, and should it ever fail
    /// to, a strong channel here would keep every closed connection's whole NIO channel alive.
    private(set) weak var channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// Breaks the cycle hummingbird-websocket 2.8.1 makes of every upgrade: the handler reference
    /// holds a copy of this context, whose `webSocket` is that same reference, so neither is ever
    /// freed (about 1 KB a connection, found with heaptrack). By the time the handler runs, the
    /// upgrade has read the reference into its own variables, so it can be emptied. Its storage is
    /// internal to the package, hence the reflection; should a release rename it, this finds
    /// nothing and changes nothing.
    func releaseHandlerReference() {
        for child in Mirror(reflecting: webSocket).children {
            (child.value as? any EmptiableBox)?.empty()
        }
    }
}

/// A locked box of an optional that can be set to nil without naming the optional's type.
protocol EmptiableBox {
    func empty()
}

extension NIOLockedValueBox: EmptiableBox where Value: ExpressibleByNilLiteral {
    func empty() {
        withLockedValue { $0 = nil }
    }
}

/// `GET /v3/events` (API.md §6.1): one user's event stream over a WebSocket.
///
/// The upgrade is always accepted and the stream authenticates inside it (a token in the
/// upgrade's headers, or a browser's first frame), so that every refusal is a close code the
/// client can read (4001), not an HTTP status a browser's WebSocket hides.
struct EventStreamController {
    let realtime: Realtime
    let participants: ParticipantService
    let authenticator: Authenticator
    let fileLinks: FileLinkIssuer
    let maxMessageLength: Int
    let logger: Logger

    /// The upgrade router's route.
    func register(on router: Router<EventStreamContext>) {
        router.ws("v3/events") { inbound, outbound, context in
            context.requestContext.releaseHandlerReference()
            guard let channel = context.requestContext.channel else { return }
            await GuardedHTTP1Channel.leaveDeadlines(channel)
            let wire = try await Self.prepare(channel)
            try await stream(context.request, inbound, outbound, channel, wire)
        }
    }

    /// The same path on the HTTP router, for a request that is not an upgrade.
    static func plainRoutes<Context: RequestContext>() -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("events") { _, _ -> Response in
            throw ParleyError(status: 426, code: 400111, message: "GET /v3/events is a WebSocket: send it as an upgrade.")
        }
        return routes
    }

    static let maxInboundMessage = 16 * 1024

    /// Puts the socket's writer first in the pipeline, and makes its reads small: an event stream
    /// receives little (pongs, typing frames), and NIO keeps a channel's last receive buffer for
    /// the next read, 2 KB a socket by default, on every idle socket.
    private static func prepare(_ channel: any Channel) async throws -> WireWriter {
        try await channel.eventLoop.submit {
            let wire = WireWriter()
            try channel.pipeline.syncOperations.addHandler(wire, position: .first)
            let reads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536)
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: reads)
            return wire
        }.get()
    }

    /// The client's next text message (its fragments joined, at most `maxInboundMessage` bytes;
    /// other messages are skipped); nil once the stream ends or the message is too long (then
    /// the socket is closing with 1009). Frames rather than hummingbird-websocket's message
    /// reader, whose larger async frame stayed allocated on every idle socket.
    private static func nextText(
        _ frames: inout WebSocketInboundStream.AsyncIterator, _ outbound: WebSocketOutboundWriter
    ) async throws -> String? {
        var text: ByteBuffer? = nil
        while let frame = try await frames.next() {
            switch frame.opcode {
            case .text: text = frame.data
            case .continuation where text != nil: text!.writeImmutableBuffer(frame.data)
            default:
                text = nil
                continue
            }
            guard text!.readableBytes <= maxInboundMessage else {
                try await outbound.close(.messageTooLarge, reason: nil)
                return nil
            }
            if frame.fin { return String(buffer: text!) }
        }
        return nil
    }

    private func stream(
        _ request: Request, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ channel: any Channel,
        _ wire: WireWriter
    ) async throws {
        var frames = inbound.makeAsyncIterator()
        let query = request.uri.queryParameters
        var after: Int64? = nil
        if let text = query["after"] {
            guard let value = Int64(String(text)), value >= 0 else {
                return try await outbound.close(.unknown(StreamCloseCode.badFrame), reason: "after must be an event id")
            }
            after = value
        }
        var token = Self.token(in: request.headers)
        if token == nil {
            // A browser: the first frame is `{"type":"auth","token":…}`, within the time allowed.
            let deadline = Task {
                try await Task.sleep(for: realtime.settings.authTimeout)
                try await outbound.close(.unknown(StreamCloseCode.unauthorized), reason: "No auth frame")
            }
            let first = try await Self.nextText(&frames, outbound)
            deadline.cancel()
            guard let text = first, let frame = try? JSONDecoder().decode(AuthFrame.self, from: Data(text.utf8)),
                frame.type == "auth"
            else {
                return try await outbound.close(.unknown(StreamCloseCode.unauthorized), reason: "The first frame must authenticate")
            }
            token = frame.token
            if let frameAfter = frame.after { after = frameAfter }
        }
        let authentication: Authentication
        do {
            guard let token else { throw ParleyError.invalidSessionToken }
            authentication = try await authenticator.authenticate(sessionToken: token)
        } catch let error as ParleyError where error.status >= 500 {
            // Not the token's fault (the database is busy or away): the client retries.
            return try await outbound.close(.unexpectedServerError, reason: "Try again shortly")
        } catch {
            return try await outbound.close(.unknown(StreamCloseCode.unauthorized), reason: "Invalid session token")
        }
        guard let token, let userID = authentication.caller.userID else {
            return try await outbound.close(.unknown(StreamCloseCode.unauthorized), reason: "A session token is required")
        }
        let socket = eventSocket(channel, wire, outbound, authentication, token: token)
        let subscription = try await realtime.connect(userID: userID, after: after, sink: socket)
        socket.start(expiresAt: authentication.sessionExpiresAt)
        do {
            while let text = try await Self.nextText(&frames, outbound) {
                if let failure = await handle(text, authentication.caller) { socket.reply(EventFrames.error(failure)) }
            }
        } catch {
            logger.debug("event stream ended", metadata: ["error": "\(error)"])
        }
        socket.stop()
        // Before the handler returns and hummingbird-websocket sends its close frame: no event
        // may follow that.
        await realtime.disconnect(subscription)
    }

    /// The socket's writer: the user's own file links in messages, and the session checked again
    /// when one of the user's sessions ends somewhere.
    private func eventSocket(
        _ channel: any Channel, _ wire: WireWriter, _ outbound: WebSocketOutboundWriter, _ authentication: Authentication,
        token: String
    ) -> EventSocket {
        let (links, maxMessageLength, authenticator, logger) = (
            fileLinks.links(for: authentication), maxMessageLength, authenticator, logger
        )
        return EventSocket(
            channel: channel, wire: wire, outbound: outbound, settings: realtime.settings,
            render: { event, shared in
                if event.readsTheSameForEveryone {
                    return shared.value { WireFrames.text(EventFrames.event(event, maxMessageLength: maxMessageLength)) }
                }
                return FileLinks.$current.withValue(links) { WireFrames.text(EventFrames.event(event, maxMessageLength: maxMessageLength)) }
            },
            checkSession: {
                do {
                    _ = try await authenticator.authenticate(sessionToken: token)
                    return true
                } catch let error as ParleyError where error.status >= 500 {
                    // Unknown for now; the socket stays, and its token is checked again when it
                    // reconnects.
                    logger.warning("checking a session failed", metadata: ["error": "\(error)"])
                    return true
                } catch {
                    return false
                }
            }
        )
    }

    /// A client frame: typing starts and ends, entering and exiting open channels (the
    /// `participant_entered` / `participant_exited` event confirms). Returns the error to
    /// report, if any.
    private func handle(_ text: String, _ caller: Caller) async -> ParleyError? {
        guard let frame = try? JSONDecoder().decode(ClientFrame.self, from: Data(text.utf8)) else {
            return ParleyError.invalidJSON
        }
        guard ["typing_start", "typing_end", "enter", "exit"].contains(frame.type) else {
            return ParleyError.invalidValue("type", "unknown frame type")
        }
        guard let channelURL = frame.channelURL, let userID = caller.userID else { return ParleyError.missing("channel_url") }
        do {
            switch frame.type {
            case "enter": _ = try await participants.enter(caller, channelURL, userID: userID, bySocket: true)
            case "exit": try await participants.exit(caller, channelURL, userID: userID)
            default: try await realtime.typing(caller, channelURL, userIDs: [userID], started: frame.type == "typing_start")
            }
            return nil
        } catch let error as ParleyError {
            return error
        } catch {
            return ParleyError.unavailable
        }
    }

    static func token(in headers: HTTPFields) -> String? {
        if let token = headers[AuthenticationMiddleware.sessionTokenHeader] { return token }
        guard let authorization = headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}

/// `{"type":"auth","token":…,"after"?:…}`
private struct AuthFrame: Decodable {
    let type: String
    let token: String
    let after: Int64?
}

/// `{"type":"typing_start"|"typing_end","channel_url":…}`
private struct ClientFrame: Decodable {
    let type: String
    let channelURL: String?

    enum CodingKeys: String, CodingKey {
        case type
        case channelURL = "channel_url"
    }
}
