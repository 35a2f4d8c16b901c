import Foundation
import HTTPTypes
import HTTPWire
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ParleyChat
import ParleyCore
import ParleyEvents
import ParleyHTTPConventions
import ParleyRepresentations
import ParleyUsers

/// `GET /v3/events` (API.md §6.1): one user's event stream over a WebSocket.
///
/// The upgrade is always accepted and the stream authenticates inside it (a token in the
/// upgrade's headers, or a browser's first frame), so that every refusal is a close code the
/// client can read (4001), not an HTTP status a browser's WebSocket hides. The socket itself is
/// NIO handlers (`EventStreamHandler`); this is the work they hand to tasks: authenticating,
/// registering the socket, and the client's frames.
public struct EventStreamController: Sendable {
    public let realtime: Realtime
    public let participants: ParticipantService
    public let authenticator: Authenticator
    public let fileLinks: FileLinkIssuer
    public let maxMessageLength: Int
    public let logger: Logger
    /// Failed authentications per client address, as on HTTP routes.
    public let addressLimits: AddressLimiter
    public let clients: ForwardedClient

    public init(
        realtime: Realtime, participants: ParticipantService, authenticator: Authenticator, fileLinks: FileLinkIssuer,
        maxMessageLength: Int, logger: Logger, addressLimits: AddressLimiter, clients: ForwardedClient
    ) {
        self.addressLimits = addressLimits
        self.clients = clients
        self.realtime = realtime
        self.participants = participants
        self.authenticator = authenticator
        self.fileLinks = fileLinks
        self.maxMessageLength = maxMessageLength
        self.logger = logger
    }

    public static let path = "/v3/events"

    /// Whether an upgrade request's target is the event stream.
    public static func isStreamTarget(_ uri: String) -> Bool {
        uri == path || uri.hasPrefix(path + "?")
    }

    /// The same path on the HTTP router, for a request that is not an upgrade: a plain GET, an
    /// upgrade missing its WebSocket headers, or one sent after other requests on a kept-alive
    /// connection (NIO upgrades only a connection's first request).
    public static func plainRoutes<Context: RequestContext>() -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("events") { _, _ -> Response in
            throw ParleyError(
                status: 426, code: 400111,
                message:
                    "GET /v3/events is a WebSocket: send it as an upgrade (with its WebSocket headers), as a connection's first request.")
        }
        return routes
    }

    public static let maxInboundMessage = 16 * 1024

    /// A stream that opened: its socket, its registration, and who it is.
    public struct OpenStream: Sendable {
        let socket: EventSocket
        let subscription: EventSubscription
        let caller: Caller
    }

    public enum Opening: Sendable {
        case opened(OpenStream)
        /// The socket is to close with this code.
        case refused(code: UInt16, reason: String)
    }

    /// Authenticates the stream and registers its socket; `address` is the client's, for the
    /// failed authentications it may still make (as for requests, `AddressLimitMiddleware`: a
    /// valid token always opens its stream; past the address's limit a failed one closes 4029).
    public func open(
        token: String?, after: Int64?, address: String, _ channel: any Channel, _ wire: WireWriter, _ closer: StreamCloser
    ) async -> Opening {
        let authentication: Authentication
        do {
            guard let token else { throw ParleyError.invalidSessionToken }
            authentication = try await authenticator.authenticate(sessionToken: token)
        } catch let error as ParleyError where error.status >= 500 {
            // Not the token's fault (the database is busy or away): the client retries.
            return .refused(code: 1011, reason: "Try again shortly")
        } catch {
            if let wait = addressLimits.refusal(.authFailure, address) {
                return .refused(code: StreamCloseCode.rateLimited, reason: "Too many failed authentications; retry in \(wait) s")
            }
            _ = await addressLimits.count(.authFailure, address)
            return .refused(code: StreamCloseCode.unauthorized, reason: "Invalid session token")
        }
        guard let token, let userID = authentication.caller.userID else {
            return .refused(code: StreamCloseCode.unauthorized, reason: "A session token is required")
        }
        let socket = eventSocket(channel, wire, closer, authentication, token: token)
        do {
            let subscription = try await realtime.connect(userID: userID, after: after, sink: socket)
            socket.start(expiresAt: authentication.sessionExpiresAt)
            return .opened(OpenStream(socket: socket, subscription: subscription, caller: authentication.caller))
        } catch {
            logger.warning("opening an event stream failed", metadata: ["error": "\(error)"])
            return .refused(code: 1011, reason: "Try again shortly")
        }
    }

    /// The socket's writer: the user's own file links in messages, and the session checked again
    /// when one of the user's sessions ends somewhere.
    private func eventSocket(
        _ channel: any Channel, _ wire: WireWriter, _ closer: StreamCloser, _ authentication: Authentication,
        token: String
    ) -> EventSocket {
        let (links, maxMessageLength, authenticator, logger) = (
            fileLinks.links(for: authentication), maxMessageLength, authenticator, logger
        )
        return EventSocket(
            channel: channel, wire: wire, closer: closer, settings: realtime.settings,
            render: { shared in
                if shared.readsTheSameForEveryone {
                    return shared.value { WireFrames.text(EventFrames.event(shared.event, maxMessageLength: maxMessageLength)) }
                }
                return FileLinks.$current.withValue(links) {
                    WireFrames.text(EventFrames.event(shared.event, maxMessageLength: maxMessageLength))
                }
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
            },
            tasks: realtime.tasks
        )
    }

    /// A client frame: typing starts and ends, entering and exiting open channels (the
    /// `participant_entered` / `participant_exited` event confirms). Returns the error to
    /// report, if any.
    public func handle(_ text: String, _ caller: Caller) async -> ParleyError? {
        guard let frame = try? JSONDecoder().decode(ClientFrame.self, from: Data(text.utf8)) else {
            return ParleyError.invalidJSON
        }
        guard ["typing_start", "typing_end", "enter", "exit"].contains(frame.type) else {
            return ParleyError.invalidValue("type", "unknown frame type")
        }
        guard let channelURL = frame.channelURL, let userID = caller.userID else { return ParleyError.missing("channel_url") }
        do {
            // The caller's writes count for their reads as a request's do (`Caller.current`).
            try await Caller.$current.withValue(caller) {
                switch frame.type {
                case "enter": _ = try await participants.enter(caller, channelURL, userID: userID, bySocket: true)
                case "exit": try await participants.exit(caller, channelURL, userID: userID)
                default: try await realtime.typing(caller, channelURL, userIDs: [userID], started: frame.type == "typing_start")
                }
            }
            return nil
        } catch let error as ParleyError {
            return error
        } catch {
            return ParleyError.unavailable
        }
    }

    /// The session token of the upgrade request, if it has one.
    public static func token(in headers: HTTPHeaders) -> String? {
        if let token = headers.first(name: AuthenticationMiddleware.sessionTokenHeader.rawName) { return token }
        return headers.first(name: "Authorization").flatMap(AuthenticationMiddleware.bearerToken)
    }
}

/// `{"type":"auth","token":…,"after"?:…}`
public struct AuthFrame: Decodable {
    public let type: String
    public let token: String
    public let after: Int64?
}

/// `{"type":"typing_start"|"typing_end","channel_url":…}`
private struct ClientFrame: Decodable {
    public let type: String
    public let channelURL: String?

    public enum CodingKeys: String, CodingKey {
        case type
        case channelURL = "channel_url"
    }
}
