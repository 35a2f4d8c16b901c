import Hummingbird
import ParleyCore

/// A request that acts on a channel for one user: the caller, the channel, the body, and the
/// `user_id` acted for (from the body or the query; the session user when neither names one).
struct ChannelActionRequest {
    let actor: Actor
    let channelURL: String
    let body: JSONBody
    let userID: String

    static func read(_ request: Request, _ context: ParleyRequestContext, maxBodyBytes: Int) async throws -> ChannelActionRequest {
        let actor = try context.requireActor()
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let userID = try body.string("user_id") ?? QueryParameters(request).userID() ?? actor.userID else {
            throw ParleyError.missing("user_id")
        }
        return ChannelActionRequest(actor: actor, channelURL: try context.pathParameter("channel_url"), body: body, userID: userID)
    }
}
