import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Group channels: create, list, read, update, delete (API.md §3.2, §3.3, §3.9).
struct GroupChannelController {
    let channels: GroupChannelService
    let lists: ChannelListService
    let limits: Limits

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("group_channels", use: create)
        routes.get("group_channels", use: list)
        routes.get("group_channels/{channel_url}", use: get)
        routes.put("group_channels/{channel_url}", use: update)
        routes.delete("group_channels/{channel_url}", use: delete)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let new = try await request.decode(as: NewGroupChannelBody.self, context: context).validated(limits: limits)
        let (view, created) = try await channels.create(context.caller, new)
        return JSONResponse.make(dto(view), status: created ? .created : .ok)
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await lists.channels(
            context.caller, viewerID: try query.userID(),
            filter: try query.channelFilter(defaultHiddenMode: .all), showMembers: try query.bool("show_member", default: false),
            limit: limit, pageToken: token
        )
        return JSONResponse.make(ListDTO(key: "channels", page: page, dto))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let view = try await channels.get(
            context.caller, try context.pathParameter("channel_url"),
            viewerID: try query.userID(), showMembers: try query.bool("show_member", default: false),
            showReadReceipt: try query.bool("show_read_receipt", default: false),
            showDeliveryReceipt: try query.bool("show_delivery_receipt", default: false)
        )
        return JSONResponse.make(dto(view))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let update = try await request.decode(as: GroupChannelUpdateBody.self, context: context).validated(limits: limits)
        let view = try await channels.update(context.caller, try context.pathParameter("channel_url"), update)
        return JSONResponse.make(dto(view))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await channels.delete(context.caller, try context.pathParameter("channel_url"))
        return JSONResponse.empty()
    }

    func dto(_ view: ChannelView) -> ChannelDTO {
        ChannelDTO(view: view, maxMessageLength: limits.messageLength)
    }
}
