import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Membership of a group channel (API.md §3.4): invitations, joining, leaving, the members list.
struct MembershipController {
    let memberships: MembershipService
    let memberLists: MemberListService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("group_channels/{channel_url}/invite", use: invite)
        routes.put("group_channels/{channel_url}/accept", use: accept)
        routes.put("group_channels/{channel_url}/decline", use: decline)
        routes.put("group_channels/{channel_url}/join", use: join)
        routes.put("group_channels/{channel_url}/leave", use: leave)
        routes.put("users/{user_id}/my_group_channels/leave", use: leaveJoined)
        routes.get("group_channels/{channel_url}/members", use: members)
        routes.get("group_channels/{channel_url}/members/{user_id}", use: member)
        return routes
    }

    @Sendable func invite(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: InviteBody.self, context: context)
        let view = try await memberships.invite(
            context.caller, try context.pathParameter("channel_url"),
            userIDs: try Validation.userIDs(body.userIDs, field: "user_ids"),
            inviterID: try body.inviterID.map { try Validation.userID($0, field: "inviter_id") }
        )
        return JSONResponse.make(channelDTO(view))
    }

    @Sendable func accept(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<AccessCodeBody>.read(request, context)
        let view = try await memberships.accept(action.caller, action.channelURL, userID: action.userID, accessCode: action.body.accessCode)
        return JSONResponse.make(channelDTO(view))
    }

    @Sendable func decline(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<UserActionBody>.read(request, context)
        try await memberships.decline(action.caller, action.channelURL, userID: action.userID)
        return JSONResponse.empty()
    }

    @Sendable func join(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<AccessCodeBody>.read(request, context)
        let view = try await memberships.join(action.caller, action.channelURL, userID: action.userID, accessCode: action.body.accessCode)
        return JSONResponse.make(channelDTO(view))
    }

    @Sendable func leaveJoined(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: LeaveJoinedBody.self, context: context)
        let customType = try body.customType.flatMap { $0.isEmpty ? nil : try Validation.text($0, field: "custom_type", max: 128) }
        try await memberships.leaveJoined(context.caller, userID: try context.pathParameter("user_id"), customType: customType)
        return JSONResponse.empty()
    }

    @Sendable func leave(_ request: Request, _ context: CallerContext) async throws -> Response {
        let caller = context.caller
        let body = try await request.decode(as: LeaveBody.self, context: context)
        var userIDs = body.userIDs ?? []
        if userIDs.isEmpty, let own = caller.userID { userIDs = [own] }
        guard !userIDs.isEmpty else { throw ParleyError.missing("user_ids") }
        try await memberships.leave(
            caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(userIDs, field: "user_ids"),
            leaveAll: body.shouldLeaveAll ?? false
        )
        return JSONResponse.empty()
    }

    @Sendable func members(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        var filter = MemberFilter()
        filter.state = try query.choice("member_state_filter", default: MemberStateFilter.all)
        switch query.string("operator_filter") ?? "all" {
        case "all": filter.operators = nil
        case "operator": filter.operators = true
        case "nonoperator": filter.operators = false
        default: throw ParleyError.invalidValue("operator_filter", "must be one of all, operator, nonoperator")
        }
        filter.muted = try query.choice("muted_member_filter", default: MutedFilter.all)
        filter.order = try query.choice("order", default: MemberOrder.memberNicknameAlphabetical)
        let page = try await memberLists.members(
            context.caller, try context.pathParameter("channel_url"), filter: filter, limit: limit, pageToken: token
        )
        return JSONResponse.make(ListDTO(key: "members", page: page, MemberDTO.init))
    }

    @Sendable func member(_ request: Request, _ context: CallerContext) async throws -> Response {
        let state = try await memberLists.state(
            context.caller, try context.pathParameter("channel_url"), userID: try context.pathParameter("user_id")
        )
        return try JSONResponse.make(MemberCheckDTO(state: state))
    }
}

/// `{ "is_member": true, "state": "joined" }`
struct MemberCheckDTO: Encodable {
    let isMember: Bool
    let state: String

    enum CodingKeys: String, CodingKey {
        case isMember = "is_member"
        case state
    }

    init(state: MemberState?) {
        isMember = state != nil
        self.state = state?.rawValue ?? "none"
    }
}

/// `POST …/invite`.
struct InviteBody: Decodable {
    @Checked var userIDs: [String]
    @Checked var inviterID: String?

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
        case inviterID = "inviter_id"
    }
}

/// `PUT …/accept` and `PUT …/join`: the user, and the channel's access code if it has one.
struct AccessCodeBody: Decodable, ActsForUser {
    @Checked var userID: String?
    @Checked var accessCode: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case accessCode = "access_code"
    }
}

/// `PUT …/leave`: the users leaving (the session user when none are named).
struct LeaveBody: Decodable {
    @Checked var userIDs: [String]?
    var shouldLeaveAll: Bool?

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
        case shouldLeaveAll = "should_leave_all"
    }
}

/// `PUT /v3/users/{user_id}/my_group_channels/leave`: without `custom_type` (or empty), every
/// joined channel.
struct LeaveJoinedBody: Decodable {
    @Checked var customType: String?

    enum CodingKeys: String, CodingKey {
        case customType = "custom_type"
    }
}
