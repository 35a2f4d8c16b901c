import Hummingbird
import ParleyChat
import ParleyCore

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
        let caller = context.caller
        let body = try await JSONBody.read(request, maxBytes: limits.jsonBodyBytes)
        let users = try (body.objectList("users") ?? []).map { user in
            NewChannelUser(
                userID: try Validation.userID(try user.requiredString("user_id"), field: "users[].user_id"),
                nickname: try user.string("nickname").map { try Validation.text($0, field: "users[].nickname", max: Validation.maxNicknameLength) },
                profileURL: try user.string("profile_url").map { try Validation.text($0, field: "users[].profile_url", max: Validation.maxProfileURLLength) }
            )
        }
        let request = NewGroupChannel(
            channelURL: try body.string("channel_url").map { try Validation.channelURL($0) },
            userIDs: try Validation.userIDs(try body.stringList("user_ids") ?? [], field: "user_ids"),
            users: users,
            name: try Validation.text(try body.string("name") ?? "", field: "name", max: Validation.maxChannelNameLength),
            coverURL: try Validation.text(try body.string("cover_url") ?? "", field: "cover_url", max: Validation.maxProfileURLLength),
            customType: try Validation.text(try body.string("custom_type") ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(try body.string("data") ?? "", max: limits.dataBytes),
            isDistinct: try body.bool("is_distinct") ?? false,
            isPublic: try body.bool("is_public") ?? false,
            isSuper: try body.bool("is_super") ?? false,
            isEphemeral: try body.bool("is_ephemeral") ?? false,
            accessCode: try body.string("access_code").map { try Validation.text($0, field: "access_code", max: Validation.maxAccessCodeLength) },
            operatorIDs: try Validation.userIDs(try body.stringList("operator_ids") ?? [], field: "operator_ids"),
            inviterID: try body.string("inviter_id").map { try Validation.userID($0, field: "inviter_id") }
        )
        let (view, created) = try await channels.create(caller, request)
        return JSONResponse.make(dto(view), status: created ? .created : .ok)
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await lists.channels(
            context.caller, viewerID: try query.userID(),
            filter: try query.channelFilter(defaultHiddenMode: .all), limit: limit, pageToken: token
        )
        return JSONResponse.make(ListDTO(key: "channels", items: page.items.map(dto), next: page.next))
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
        let body = try await JSONBody.read(request, maxBytes: limits.jsonBodyBytes)
        let update = GroupChannelUpdate(
            name: try body.string("name").map { try Validation.text($0, field: "name", max: Validation.maxChannelNameLength) },
            coverURL: try body.string("cover_url").map { try Validation.text($0, field: "cover_url", max: Validation.maxProfileURLLength) },
            customType: try body.string("custom_type").map { try Validation.text($0, field: "custom_type", max: Validation.maxCustomTypeLength) },
            data: try body.string("data").map { try Validation.data($0, max: limits.dataBytes) },
            isPublic: try body.bool("is_public"),
            isDistinct: try body.bool("is_distinct"),
            accessCode: try body.string("access_code").map { try Validation.text($0, field: "access_code", max: Validation.maxAccessCodeLength) }
        )
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
