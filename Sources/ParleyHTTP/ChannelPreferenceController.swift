import Hummingbird
import ParleyChat
import ParleyCore

/// A member's own view of their channels (API.md §3.5, §3.6, §3.8).
struct ChannelPreferenceController {
    let preferences: ChannelPreferenceService
    let lists: ChannelListService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO
    let maxBodyBytes: Int

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.put("group_channels/{channel_url}/hide", use: hide)
        routes.delete("group_channels/{channel_url}/hide", use: unhide)
        routes.put("group_channels/{channel_url}/reset_user_history", use: resetHistory)
        routes.get("users/{user_id}/my_group_channels", use: myChannels)
        return routes
    }

    @Sendable func hide(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: maxBodyBytes)
        try await preferences.hide(
            action.caller, action.channelURL, userID: action.userID,
            allowAutoUnhide: try action.body.bool("allow_auto_unhide") ?? true,
            hidePreviousMessages: try action.body.bool("hide_previous_messages") ?? false,
            hideAll: try action.body.bool("should_hide_all") ?? false
        )
        return JSONResponse.empty()
    }

    /// DELETE …/hide takes `user_id` and `should_unhide_all` from the body or the query string.
    @Sendable func unhide(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: maxBodyBytes)
        let queryUnhideAll = try QueryParameters(request).bool("should_unhide_all", default: false)
        let unhideAll = try action.body.bool("should_unhide_all") ?? queryUnhideAll
        try await preferences.unhide(action.caller, action.channelURL, userID: action.userID, unhideAll: unhideAll)
        return JSONResponse.empty()
    }

    @Sendable func resetHistory(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: maxBodyBytes)
        let offset = try await preferences.resetHistory(action.caller, action.channelURL, userID: action.userID, resetAll: try action.body.bool("reset_all") ?? false)
        return JSONResponse.make(OffsetDTO(ts_message_offset: offset))
    }

    @Sendable func myChannels(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await lists.myChannels(
            context.caller, userID: try context.pathParameter("user_id"),
            filter: try query.channelFilter(defaultHiddenMode: .unhiddenOnly), limit: limit, pageToken: token
        )
        return JSONResponse.make(ListDTO(key: "channels", items: page.items.map(channelDTO), next: page.next))
    }
}

struct OffsetDTO: JSONWritable {
    let ts_message_offset: Int64

    func write(to json: inout JSONWriter) {
        json.object { $0.field("ts_message_offset", ts_message_offset) }
    }
}
