import Hummingbird
import ParleyChat
import ParleyCore

/// Reactions (API.md §4.6) and sorted meta arrays (§4.5) of one message.
struct MessageExtrasController {
    let reactions: ReactionService
    let metaarrays: MetaArrayService
    let limits: Limits

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let message = "group_channels/{channel_url}/messages/{message_id}"
        routes.post(RouterPath(message + "/reactions"), use: addReaction)
        routes.get(RouterPath(message + "/reactions"), use: listReactions)
        routes.delete(RouterPath(message + "/reactions"), use: removeReaction)
        routes.post(RouterPath(message + "/sorted_metaarray"), use: addMetaarrayKeys)
        routes.put(RouterPath(message + "/sorted_metaarray"), use: updateMetaarray)
        routes.delete(RouterPath(message + "/sorted_metaarray"), use: removeMetaarrayKeys)
        return routes
    }

    @Sendable func addReaction(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: limits.jsonBodyBytes)
        let reaction = try reactionKey(try action.body.requiredString("reaction"))
        let updatedAt = try await reactions.add(action.caller, action.channelURL, try context.messageID(), userID: action.userID, reaction: reaction)
        return JSONResponse.make(ReactionChangeDTO(reaction: reaction, userID: action.userID, messageID: try context.messageID(), updatedAt: updatedAt, operation: "ADD"))
    }

    @Sendable func removeReaction(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest.read(request, context, maxBodyBytes: limits.jsonBodyBytes)
        // The query's `reaction`, else the body's; both are checked when both are given.
        let queryReaction = try QueryParameters(request).string("reaction").map(reactionKey)
        let bodyReaction = try action.body.string("reaction").map(reactionKey)
        guard let reaction = queryReaction ?? bodyReaction else { throw ParleyError.missing("reaction") }
        try await reactions.remove(action.caller, action.channelURL, try context.messageID(), userID: action.userID, reaction: reaction)
        return JSONResponse.make(ReactionChangeDTO(reaction: reaction, userID: action.userID, messageID: try context.messageID(), updatedAt: 0, operation: "DELETE"))
    }

    @Sendable func listReactions(_ request: Request, _ context: CallerContext) async throws -> Response {
        let list = try await reactions.list(context.caller, try context.pathParameter("channel_url"), try context.messageID())
        return JSONResponse.make(ListDTO(key: "reactions", items: list.map(ReactionDTO.init), next: ""))
    }

    @Sendable func addMetaarrayKeys(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: limits.jsonBodyBytes)
        let entries = try MessageInput(limits: limits).metaarray(body)
        guard !entries.isEmpty else { throw ParleyError.missing("sorted_metaarray") }
        let message = try await metaarrays.addKeys(context.caller, try context.pathParameter("channel_url"), try context.messageID(), entries)
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func updateMetaarray(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await JSONBody.read(request, maxBytes: limits.jsonBodyBytes)
        let entries = try MessageInput(limits: limits).metaarray(body)
        guard !entries.isEmpty else { throw ParleyError.missing("sorted_metaarray") }
        let modeText = try body.string("mode") ?? "add"
        guard let mode = MetaArrayService.Mode(rawValue: modeText) else { throw ParleyError.invalidValue("mode", "must be add or remove") }
        let message = try await metaarrays.updateValues(
            context.caller, try context.pathParameter("channel_url"), try context.messageID(), entries,
            mode: mode, upsert: try body.bool("upsert") ?? true
        )
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func removeMetaarrayKeys(_ request: Request, _ context: CallerContext) async throws -> Response {
        guard let keys = QueryParameters(request).list("metaarray_keys") else { throw ParleyError.missing("metaarray_keys") }
        let message = try await metaarrays.removeKeys(context.caller, try context.pathParameter("channel_url"), try context.messageID(), keys: keys)
        return JSONResponse.make(MessageDTO(message: message))
    }

    private func reactionKey(_ text: String) throws -> String {
        guard !text.isEmpty else { throw ParleyError.invalidValue("reaction", "must not be empty") }
        return try Validation.text(text, field: "reaction", max: ReactionService.maxReactionLength)
    }
}

/// The answer to adding or removing a reaction.
struct ReactionChangeDTO: JSONWritable {
    let reaction: String
    let userID: String
    let messageID: Int64
    let updatedAt: Int64
    let operation: String

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("reaction", reaction)
            json.field("user_id", userID)
            json.field("msg_id", messageID)
            json.field("updated_at", updatedAt)
            json.field("operation", operation)
            json.field("success", true)
        }
    }
}
