import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// Reactions (API.md §4.6) and sorted meta arrays (§4.5) of one message.
struct MessageExtrasController {
    let kind: ChannelKind
    let reactions: ReactionService
    let metaarrays: MetaArrayService
    let limits: Limits

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        let message = "\(kind.pathSegment)/{channel_url}/messages/{message_id}"
        routes.post(RouterPath(message + "/reactions"), use: addReaction)
        routes.get(RouterPath(message + "/reactions"), use: listReactions)
        routes.delete(RouterPath(message + "/reactions"), use: removeReaction)
        routes.post(RouterPath(message + "/sorted_metaarray"), use: addMetaarrayKeys)
        routes.put(RouterPath(message + "/sorted_metaarray"), use: updateMetaarray)
        routes.delete(RouterPath(message + "/sorted_metaarray"), use: removeMetaarrayKeys)
        return routes
    }

    @Sendable func addReaction(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<ReactionBody>.read(request, context)
        guard let given = action.body.reaction else { throw ParleyError.missing("reaction") }
        let reaction = try reactionKey(given)
        let updatedAt = try await reactions.add(
            action.caller, kind, action.channelURL, try context.messageID(), userID: action.userID, reaction: reaction)
        return try JSONResponse.make(
            ReactionChangeDTO(
                reaction: reaction, userID: action.userID, messageID: try context.messageID(), updatedAt: updatedAt, operation: "ADD"
            ))
    }

    @Sendable func removeReaction(_ request: Request, _ context: CallerContext) async throws -> Response {
        let action = try await ChannelActionRequest<ReactionBody>.read(request, context)
        // The query's `reaction`, else the body's; both are checked when both are given.
        let queryReaction = try QueryParameters(request).string("reaction").map(reactionKey)
        let bodyReaction = try action.body.reaction.map(reactionKey)
        guard let reaction = queryReaction ?? bodyReaction else { throw ParleyError.missing("reaction") }
        try await reactions.remove(
            action.caller, kind, action.channelURL, try context.messageID(), userID: action.userID, reaction: reaction)
        return try JSONResponse.make(
            ReactionChangeDTO(
                reaction: reaction, userID: action.userID, messageID: try context.messageID(), updatedAt: 0, operation: "DELETE"
            ))
    }

    @Sendable func listReactions(_ request: Request, _ context: CallerContext) async throws -> Response {
        let list = try await reactions.list(context.caller, kind, try context.pathParameter("channel_url"), try context.messageID())
        return JSONResponse.make(ListDTO(key: "reactions", items: list.map(ReactionDTO.init), next: ""))
    }

    @Sendable func addMetaarrayKeys(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetaArrayKeysBody.self, context: context)
        let entries = try MessageFieldRules.metaarray(body.sortedMetaarray)
        guard !entries.isEmpty else { throw ParleyError.missing("sorted_metaarray") }
        let message = try await metaarrays.addKeys(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), entries)
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func updateMetaarray(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: MetaArrayUpdateBody.self, context: context)
        let entries = try MessageFieldRules.metaarray(body.sortedMetaarray)
        guard !entries.isEmpty else { throw ParleyError.missing("sorted_metaarray") }
        guard let mode = MetaArrayService.Mode(rawValue: body.mode ?? "add") else {
            throw ParleyError.invalidValue("mode", "must be add or remove")
        }
        let message = try await metaarrays.updateValues(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), entries,
            mode: mode, upsert: body.upsert ?? true
        )
        return JSONResponse.make(MessageDTO(message: message))
    }

    @Sendable func removeMetaarrayKeys(_ request: Request, _ context: CallerContext) async throws -> Response {
        guard let keys = QueryParameters(request).list("metaarray_keys")?.map(\.nfc) else { throw ParleyError.missing("metaarray_keys") }
        let message = try await metaarrays.removeKeys(
            context.caller, kind, try context.pathParameter("channel_url"), try context.messageID(), keys: keys)
        return JSONResponse.make(MessageDTO(message: message))
    }

    /// In Unicode NFC, so that one reaction spelled two ways is one row (see `String.nfc`).
    private func reactionKey(_ text: String) throws -> String {
        guard !text.isEmpty else { throw ParleyError.invalidValue("reaction", "must not be empty") }
        return try Validation.text(text.nfc, field: "reaction", max: ReactionService.maxReactionLength)
    }
}

/// The answer to adding or removing a reaction.
struct ReactionChangeDTO: Encodable {
    let reaction: String
    let userID: String
    let messageID: Int64
    let updatedAt: Int64
    let operation: String
    let success = true

    enum CodingKeys: String, CodingKey {
        case reaction
        case userID = "user_id"
        case messageID = "msg_id"
        case updatedAt = "updated_at"
        case operation, success
    }
}

/// `POST …/reactions` (`reaction` required) and `DELETE …/reactions` (or in the query).
struct ReactionBody: Decodable, ActsForUser {
    @Checked var userID: String?
    @Checked var reaction: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case reaction
    }
}

/// `POST …/sorted_metaarray`: keys to add.
struct MetaArrayKeysBody: Decodable {
    var sortedMetaarray: [MetaArrayBody]?

    enum CodingKeys: String, CodingKey {
        case sortedMetaarray = "sorted_metaarray"
    }
}

/// `PUT …/sorted_metaarray`: values to add or remove (`mode`), creating missing keys (`upsert`).
struct MetaArrayUpdateBody: Decodable {
    var sortedMetaarray: [MetaArrayBody]?
    @Checked var mode: String?
    var upsert: Bool?

    enum CodingKeys: String, CodingKey {
        case sortedMetaarray = "sorted_metaarray"
        case mode, upsert
    }
}
