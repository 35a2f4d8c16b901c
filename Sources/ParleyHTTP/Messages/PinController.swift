import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Pinned messages of one channel kind (API.md §13.2): `POST|DELETE …/messages/{message_id}/pin`
/// answer with the channel as the caller then sees it (as Sendbird's do), and
/// `GET …/pinned_messages` pages through the pins, newest first.
struct PinController {
    let pins: PinService
    let kind: ChannelKind
    /// The channel resource after a pin, as `GET` on the channel answers it.
    let channel: @Sendable (Caller, String) async throws -> any JSONWritable

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let channelPath = "\(kind.pathSegment)/{channel_url}"
        routes.post(RouterPath("\(channelPath)/messages/{message_id}/pin"), use: pin)
        routes.delete(RouterPath("\(channelPath)/messages/{message_id}/pin"), use: unpin)
        routes.get(RouterPath("\(channelPath)/pinned_messages"), use: list)
        return routes
    }

    @Sendable func pin(_ request: Request, _ context: CallerContext) async throws -> Response {
        let channelURL = try context.pathParameter("channel_url")
        try await pins.pin(context.caller, kind, channelURL, try context.messageID())
        return JSONResponse.make(try await channel(context.caller, channelURL))
    }

    @Sendable func unpin(_ request: Request, _ context: CallerContext) async throws -> Response {
        let channelURL = try context.pathParameter("channel_url")
        try await pins.unpin(context.caller, kind, channelURL, try context.messageID())
        return JSONResponse.make(try await channel(context.caller, channelURL))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await pins.list(context.caller, kind, try context.pathParameter("channel_url"), limit: limit, token: token)
        return JSONResponse.make(ListDTO(key: "pinned_messages", page: page) { MessageDTO(message: $0) })
    }
}
