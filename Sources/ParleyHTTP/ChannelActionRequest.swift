import Hummingbird
import ParleyCore

/// A request that acts on a channel for one user: the caller, the channel, the body, and the
/// `user_id` acted for (from the body or the query; the session user when neither names one),
/// checked for form (400111) wherever it comes from.
struct ChannelActionRequest {
    let caller: Caller
    let channelURL: String
    let body: JSONBody
    let userID: String

    static func read(_ request: Request, _ context: CallerContext, maxBodyBytes: Int) async throws -> ChannelActionRequest {
        let caller = context.caller
        let body = try await JSONBody.read(request, maxBytes: maxBodyBytes)
        // Both places are checked when both are given (the body's wins), so no bad value passes unseen.
        let bodyUserID = try body.string("user_id").map { try Validation.userID($0) }
        let queryUserID = try QueryParameters(request).userID()
        guard let userID = bodyUserID ?? queryUserID ?? caller.userID else {
            throw ParleyError.missing("user_id")
        }
        return ChannelActionRequest(caller: caller, channelURL: try context.pathParameter("channel_url"), body: body, userID: userID)
    }
}
