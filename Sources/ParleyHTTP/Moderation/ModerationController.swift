import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration
import ParleyRepresentations

/// Bans, mutes and the audit log (API.md §7.1, §7.2, §7.5), for both kinds of channel.
struct ModerationController {
    let moderation: ModerationService
    let auditLogs: AuditLogService
    let clock: Clock
    let channelDTO: @Sendable (ChannelResource) -> ChannelResourceDTO
    let kinds: [ChannelKind]

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        for kind in kinds {
            let base = "\(kind.pathSegment)/{channel_url}"
            routes.post("\(base)/ban") { try await ban(kind, $0, $1) }
            routes.get("\(base)/ban") { try await list(.ban, kind, $0, $1) }
            routes.get("\(base)/ban/{banned_user_id}") { try await bannedUser(kind, $0, $1) }
            routes.put("\(base)/ban/{banned_user_id}") { try await updateBan(kind, $0, $1) }
            routes.delete("\(base)/ban/{banned_user_id}") { try await lift(.ban, kind, $0, $1) }
            routes.post("\(base)/mute") { try await mute(kind, $0, $1) }
            routes.get("\(base)/mute") { try await list(.mute, kind, $0, $1) }
            routes.get("\(base)/mute/{muted_user_id}") { try await muteStatus(kind, $0, $1) }
            routes.delete("\(base)/mute/{muted_user_id}") { try await lift(.mute, kind, $0, $1) }
        }
        routes.get("users/{user_id}/ban") { try await userChannels(.ban, $0, $1) }
        routes.get("users/{user_id}/mute") { try await userChannels(.mute, $0, $1) }
        routes.get("audit_logs", use: auditLog)
        return routes
    }

    func ban(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let new = try await restriction(request, context)
        let ban = try await moderation.ban(context.caller, kind, try context.pathParameter("channel_url"), new)
        return JSONResponse.make(RestrictionDTO(restriction: ban))
    }

    func mute(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let new = try await restriction(request, context)
        let view = try await moderation.mute(context.caller, kind, try context.pathParameter("channel_url"), new)
        return JSONResponse.make(channelDTO(view))
    }

    private func restriction(_ request: Request, _ context: CallerContext) async throws -> NewRestriction {
        let body = try await request.decode(as: RestrictionBody.self, context: context)
        return NewRestriction(
            userID: try Validation.userID(body.userID), seconds: body.seconds ?? -1,
            description: try Validation.text(body.description ?? "", field: "description", max: 1000),
            agentID: try body.agentID.map { try Validation.userID($0, field: "agent_id") }
        )
    }

    func updateBan(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: BanUpdateBody.self, context: context)
        let ban = try await moderation.updateBan(
            context.caller, kind, try context.pathParameter("channel_url"), userID: try context.pathParameter("banned_user_id"),
            seconds: body.seconds, description: try body.description.map { try Validation.text($0, field: "description", max: 1000) }
        )
        return JSONResponse.make(RestrictionDTO(restriction: ban))
    }

    func lift(_ restriction: RestrictionKind, _ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let userID = try context.pathParameter(restriction == .ban ? "banned_user_id" : "muted_user_id")
        try await moderation.lift(restriction, context.caller, kind, try context.pathParameter("channel_url"), userID: userID)
        return JSONResponse.empty()
    }

    func bannedUser(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let userID = try context.pathParameter("banned_user_id")
        guard let ban = try await moderation.find(.ban, context.caller, kind, try context.pathParameter("channel_url"), userID: userID)
        else { throw ParleyError.notFound("\"\(userID)\" is not banned in this channel.") }
        return JSONResponse.make(RestrictionDTO(restriction: ban))
    }

    func muteStatus(_ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let userID = try context.pathParameter("muted_user_id")
        let mute = try await moderation.find(.mute, context.caller, kind, try context.pathParameter("channel_url"), userID: userID)
        return JSONResponse.make(MuteStatusDTO(mute: mute, now: clock.nowMillis))
    }

    func list(_ restriction: RestrictionKind, _ kind: ChannelKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let (page, total) = try await moderation.list(
            restriction, context.caller, kind, try context.pathParameter("channel_url"), limit: limit, pageToken: token)
        return JSONResponse.make(
            RestrictionListDTO(
                key: restriction == .ban ? "banned_list" : "muted_list",
                totalKey: restriction == .ban ? "total_ban_count" : "total_mute_count",
                page: page, total: total))
    }

    func userChannels(_ restriction: RestrictionKind, _ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await moderation.channels(
            restriction, of: try context.pathParameter("user_id"), context.caller, limit: limit, pageToken: token)
        return JSONResponse.make(
            ListDTO(
                key: restriction == .ban ? "banned_channels" : "muted_channels",
                items: page.items.map { RestrictedChannelDTO(item: $0, channelDTO: channelDTO) }, next: page.next))
    }

    @Sendable func auditLog(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        var filter = AuditFilter()
        filter.action = try query.string("action").map { value in
            guard let action = AuditAction(rawValue: value) else {
                throw ParleyError.invalidValue("action", "one of \(AuditAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return action
        }
        filter.actorID = query.string("actor_id")
        filter.targetUserID = query.string("target_user_id")
        filter.channelURL = query.string("channel_url")
        filter.startTS = try query.int64("start_ts")
        filter.endTS = try query.int64("end_ts")
        let page = try await auditLogs.list(context.caller, filter, limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "audit_logs", page: page, AuditEntryDTO.init))
    }
}

/// `POST …/ban` and `POST …/mute`.
struct RestrictionBody: Decodable {
    @Checked var userID: String
    @Checked var seconds: Int64?
    @Checked var description: String?
    @Checked var agentID: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case seconds, description
        case agentID = "agent_id"
    }
}

/// `PUT …/ban/{user_id}`.
struct BanUpdateBody: Decodable {
    @Checked var seconds: Int64
    @Checked var description: String?
}
