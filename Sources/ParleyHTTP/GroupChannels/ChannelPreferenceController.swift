import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// A member's own view of their channels (API.md §3.5, §3.6, §3.8).
struct ChannelPreferenceController {
    let preferences: ChannelPreferenceService
    let lists: ChannelListService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO

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
        let action = try await ChannelActionRequest<HideBody>.read(request, context)
        try await preferences.hide(
            action.caller, action.channelURL, userID: action.userID,
            allowAutoUnhide: action.body.allowAutoUnhide ?? true,
            hidePreviousMessages: action.body.hidePreviousMessages ?? false,
            hideAll: action.body.shouldHideAll ?? false
        )
        return JSONResponse.empty()
    }

    /// DELETE …/hide takes `user_id` and `should_unhide_all` from the body or the query string.
    @Sendable func unhide(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<UnhideBody>.read(request, context)
        let queryUnhideAll = try QueryParameters(request).bool("should_unhide_all", default: false)
        let unhideAll = action.body.shouldUnhideAll ?? queryUnhideAll
        try await preferences.unhide(action.caller, action.channelURL, userID: action.userID, unhideAll: unhideAll)
        return JSONResponse.empty()
    }

    @Sendable func resetHistory(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<ResetHistoryBody>.read(request, context)
        let offset = try await preferences.resetHistory(
            action.caller, action.channelURL, userID: action.userID, resetAll: action.body.resetAll ?? false
        )
        return try JSONResponse.make(OffsetDTO(tsMessageOffset: offset))
    }

    @Sendable func myChannels(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await lists.myChannels(
            context.caller, userID: try context.pathParameter("user_id"),
            filter: try query.channelFilter(defaultHiddenMode: .unhiddenOnly), showMembers: try query.bool("show_member", default: false),
            limit: limit, pageToken: token
        )
        return JSONResponse.make(ListDTO(key: "channels", page: page, channelDTO))
    }
}

/// The answer to `reset_user_history`.
struct OffsetDTO: Encodable {
    let tsMessageOffset: Int64

    enum CodingKeys: String, CodingKey {
        case tsMessageOffset = "ts_message_offset"
    }
}

/// `PUT …/hide`.
struct HideBody: Decodable, ActsForUser {
    @Checked var userID: String?
    var allowAutoUnhide: Bool?
    var hidePreviousMessages: Bool?
    var shouldHideAll: Bool?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case allowAutoUnhide = "allow_auto_unhide"
        case hidePreviousMessages = "hide_previous_messages"
        case shouldHideAll = "should_hide_all"
    }
}

/// `DELETE …/hide`: `should_unhide_all` may come in the query instead.
struct UnhideBody: Decodable, ActsForUser {
    @Checked var userID: String?
    var shouldUnhideAll: Bool?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case shouldUnhideAll = "should_unhide_all"
    }
}

/// `PUT …/reset_user_history`.
struct ResetHistoryBody: Decodable, ActsForUser {
    @Checked var userID: String?
    var resetAll: Bool?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case resetAll = "reset_all"
    }
}
