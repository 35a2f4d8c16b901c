import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Polls (API.md §13.4), on Sendbird's paths.
struct PollController {
    let polls: PollService
    let limits: Limits
    let clock: Clock

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("polls", use: create)
        routes.get("polls", use: list)
        routes.get("polls/{poll_id}", use: get)
        routes.put("polls/{poll_id}", use: update)
        routes.delete("polls/{poll_id}", use: delete)
        routes.put("polls/{poll_id}/close", use: close)
        routes.put("polls/{poll_id}/vote", use: vote)
        routes.post("polls/{poll_id}/options", use: addOption)
        routes.get("polls/{poll_id}/options/{option_id}", use: option)
        routes.put("polls/{poll_id}/options/{option_id}", use: updateOption)
        routes.delete("polls/{poll_id}/options/{option_id}", use: deleteOption)
        routes.get("polls/{poll_id}/options/{option_id}/voters", use: voters)
        return routes
    }

    @Sendable func create(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: NewPollBody.self, context: context)
        let poll = try await polls.create(context.caller, try body.validated(caller: context.caller, limits: limits, now: clock.nowMillis))
        return JSONResponse.make(PollDTO(poll: poll), status: .created)
    }

    /// `channel_url` with `channel_type` (group by default), or none: see `PollService.list`.
    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let kind = try PollFieldRules.channelKind(query.string("channel_type"))
        let channel = query.string("channel_url").map { (url: $0, kind: kind) }
        let page = try await polls.list(context.caller, channel: channel, limit: limit, token: token)
        return JSONResponse.make(ListDTO(key: "polls", page: page) { PollDTO(poll: $0.poll, votedOptionIDs: $0.voted) })
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (poll, voted) = try await polls.get(context.caller, try Self.pollID(context))
        return JSONResponse.make(PollDTO(poll: poll, votedOptionIDs: voted))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let change = try await request.decode(as: PollUpdateBody.self, context: context).validated(limits: limits, now: clock.nowMillis)
        return JSONResponse.make(PollDTO(poll: try await polls.update(context.caller, try Self.pollID(context), change)))
    }

    @Sendable func delete(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await polls.delete(context.caller, try Self.pollID(context))
        return JSONResponse.empty()
    }

    @Sendable func close(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(PollDTO(poll: try await polls.close(context.caller, try Self.pollID(context))))
    }

    @Sendable func vote(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: PollVoteBody.self, context: context)
        guard let userID = try body.userID.map({ try Validation.userID($0) }) ?? context.caller.userID else {
            throw ParleyError.missing("user_id")
        }
        guard let optionIDs = body.optionIDs else { throw ParleyError.missing("option_ids") }
        let poll = try await polls.vote(context.caller, try Self.pollID(context), userID: userID, optionIDs: optionIDs)
        return JSONResponse.make(PollDTO(poll: poll))
    }

    @Sendable func addOption(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: PollOptionBody.self, context: context)
        guard let text = body.text else { throw ParleyError.missing("text") }
        let creator = try body.createdBy.map { try Validation.userID($0) }
        let poll = try await polls.addOption(
            context.caller, try Self.pollID(context), text: try PollFieldRules.optionText(text), createdBy: creator)
        return JSONResponse.make(PollDTO(poll: poll))
    }

    @Sendable func option(_ request: Request, _ context: CallerContext) async throws -> Response {
        let optionID = try context.numberParameter("option_id")
        let (poll, _) = try await polls.get(context.caller, try Self.pollID(context))
        guard let option = poll.options.first(where: { $0.optionID == optionID }) else {
            throw ParleyError.notFound("Poll \(poll.pollID) has no option \(optionID).")
        }
        return try JSONResponse.make(PollOptionBodyDTO(option: option))
    }

    @Sendable func updateOption(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: PollOptionBody.self, context: context)
        guard let text = body.text else { throw ParleyError.missing("text") }
        let poll = try await polls.updateOption(
            context.caller, try Self.pollID(context), try context.numberParameter("option_id"), text: try PollFieldRules.optionText(text))
        return JSONResponse.make(PollDTO(poll: poll))
    }

    @Sendable func deleteOption(_ request: Request, _ context: CallerContext) async throws -> Response {
        let poll = try await polls.deleteOption(context.caller, try Self.pollID(context), try context.numberParameter("option_id"))
        return JSONResponse.make(PollDTO(poll: poll))
    }

    @Sendable func voters(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (limit, token) = try QueryParameters(request).page()
        let page = try await polls.voters(
            context.caller, try Self.pollID(context), try context.numberParameter("option_id"), limit: limit, token: token)
        return JSONResponse.make(ListDTO(key: "voters", page: page) { BasicUserDTO(user: $0) })
    }

    private static func pollID(_ context: CallerContext) throws -> Int64 {
        try context.numberParameter("poll_id")
    }
}

/// One option: `{ id, poll_id, text, vote_count, created_by, created_at, updated_at }`.
struct PollOptionBodyDTO: Encodable {
    let id: Int64
    let pollID: Int64
    let text: String
    let voteCount: Int
    let createdBy: String?
    let createdAt: Int64
    let updatedAt: Int64

    init(option: PollOption) {
        (id, pollID, text, voteCount) = (option.optionID, option.pollID, option.text, option.voteCount)
        (createdBy, createdAt, updatedAt) = (option.createdBy, option.createdAt, option.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, text
        case pollID = "poll_id"
        case voteCount = "vote_count"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `created_by` is null, not absent, for an option the admin made.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(pollID, forKey: .pollID)
        try container.encode(text, forKey: .text)
        try container.encode(voteCount, forKey: .voteCount)
        try container.encode(createdBy, forKey: .createdBy)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
