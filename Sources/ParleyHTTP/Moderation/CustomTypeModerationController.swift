import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration
import ParleyRepresentations

/// Bans and mutes by channel custom type (API.md §14.7), Sendbird's paths: the admin's.
struct CustomTypeModerationController {
    let moderation: CustomTypeModerationService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let base = "applications/settings_by_channel_custom_type/{custom_type}"
        routes.post("\(base)/ban", use: ban)
        routes.get("\(base)/ban", use: bans)
        routes.delete("\(base)/ban", use: unban)
        routes.post("\(base)/mute", use: mute)
        routes.get("\(base)/mute", use: mutes)
        routes.delete("\(base)/mute", use: unmute)
        routes.post("users/{user_id}/banned_channel_custom_types", use: banFromTypes)
        routes.post("users/{user_id}/muted_channel_custom_types", use: muteInTypes)
        return routes
    }

    /// `{ banned_list: [{ user_id, seconds, description }] }`; `seconds` -1 or absent: until lifted.
    @Sendable func ban(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: CustomTypeBanBody.self, context: context)
        guard let list = body.bannedList, !list.isEmpty else { throw ParleyError.missing("banned_list") }
        let entries = try list.map { entry in
            NewRestriction(
                userID: try Validation.userID(entry.userID), seconds: entry.seconds ?? -1,
                description: try Validation.text(entry.description ?? "", field: "description", max: 1000), agentID: nil)
        }
        try await moderation.impose(context.caller, .ban, customTypes: [try context.pathParameter("custom_type")], entries)
        return JSONResponse.empty()
    }

    /// `{ user_ids, seconds, description }`.
    @Sendable func mute(_ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: CustomTypeMuteBody.self, context: context)
        guard let userIDs = body.userIDs, !userIDs.isEmpty else { throw ParleyError.missing("user_ids") }
        let description = try Validation.text(body.description ?? "", field: "description", max: 1000)
        let entries = try Validation.userIDs(userIDs, field: "user_ids").map {
            NewRestriction(userID: $0, seconds: body.seconds ?? -1, description: description, agentID: nil)
        }
        try await moderation.impose(context.caller, .mute, customTypes: [try context.pathParameter("custom_type")], entries)
        return JSONResponse.empty()
    }

    @Sendable func bans(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await list(.ban, request, context)
    }

    @Sendable func mutes(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await list(.mute, request, context)
    }

    private func list(_ restriction: RestrictionKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await moderation.list(
            context.caller, restriction, customType: try context.pathParameter("custom_type"), limit: limit, pageToken: token)
        let key = restriction == .ban ? "banned_list" : "muted_list"
        return JSONResponse.make(ListDTO(key: key, page: page) { RestrictionDTO(restriction: $0) })
    }

    @Sendable func unban(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await lift(.ban, request, context)
    }

    @Sendable func unmute(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await lift(.mute, request, context)
    }

    /// `?user_ids=a,b` (or the key repeated).
    private func lift(_ restriction: RestrictionKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let userIDs = QueryParameters(request).all("user_ids")
        try await moderation.lift(context.caller, restriction, customType: try context.pathParameter("custom_type"), userIDs: userIDs)
        return JSONResponse.empty()
    }

    /// `{ channel_custom_types: […] }`: until lifted.
    @Sendable func banFromTypes(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await imposeForUser(.ban, request, context)
    }

    @Sendable func muteInTypes(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await imposeForUser(.mute, request, context)
    }

    private func imposeForUser(_ restriction: RestrictionKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        try context.caller.requireAdmin()
        let body = try await request.decode(as: CustomTypesBody.self, context: context)
        let userID = try Validation.userID(try context.pathParameter("user_id"))
        try await moderation.impose(
            context.caller, restriction, customTypes: body.customTypes ?? [],
            [NewRestriction(userID: userID, seconds: -1, description: "", agentID: nil)])
        return JSONResponse.empty()
    }
}

struct CustomTypeBanBody: Decodable {
    var bannedList: [Entry]?

    struct Entry: Decodable {
        @Checked var userID: String
        @Checked var seconds: Int64?
        @Checked var description: String?

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case seconds, description
        }
    }

    enum CodingKeys: String, CodingKey {
        case bannedList = "banned_list"
    }
}

struct CustomTypeMuteBody: Decodable {
    @Checked var userIDs: [String]?
    @Checked var seconds: Int64?
    @Checked var description: String?

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
        case seconds, description
    }
}

struct CustomTypesBody: Decodable {
    @Checked var customTypes: [String]?

    enum CodingKeys: String, CodingKey {
        case customTypes = "channel_custom_types"
    }
}
