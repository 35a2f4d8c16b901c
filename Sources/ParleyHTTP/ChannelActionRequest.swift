import Hummingbird
import ParleyCore

/// A request that acts on a channel for one user: the caller, the channel, the body, and the
/// `user_id` acted for (from the body or the query; the session user when neither names one).
struct ChannelActionRequest {
    let caller: Caller
    let channelURL: String
    let body: JSONBody
    let userID: String

    static func read(_ request: Request, _ context: CallerContext, maxBodyBytes: Int) async throws -> ChannelActionRequest {
        let caller = context.caller
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        guard let userID = try body.string("user_id") ?? QueryParameters(request).userID() ?? caller.userID else {
            throw ParleyError.missing("user_id")
        }
        return ChannelActionRequest(caller: caller, channelURL: try context.pathParameter("channel_url"), body: body, userID: userID)
    }
}
