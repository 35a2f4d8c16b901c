import Hummingbird
import ParleyCore
import ParleyHTTPConventions

/// A body that may name the user a channel request acts for (`user_id`).
protocol ActsForUser {
    var userID: String? { get }
}

/// A request that acts on a channel for one user: the caller, the channel, the decoded body, and
/// the `user_id` acted for (from the body or the query; the session user when neither names one),
/// checked for form (400111) wherever it comes from.
struct ChannelActionRequest<Body: Decodable & ActsForUser> {
    let caller: Caller
    let channelURL: String
    let body: Body
    let userID: String

    static func read(_ request: Request, _ context: CallerContext) async throws -> ChannelActionRequest {
        let caller = context.caller
        let body = try await request.decode(as: Body.self, context: context)
        // Both places are checked when both are given (the body's wins), so no bad value passes unseen.
        let bodyUserID = try body.userID.map { try Validation.userID($0) }
        let queryUserID = try QueryParameters(request).userID()
        guard let userID = bodyUserID ?? queryUserID ?? caller.userID else {
            throw ParleyError.missing("user_id")
        }
        return ChannelActionRequest(caller: caller, channelURL: try context.pathParameter("channel_url"), body: body, userID: userID)
    }
}

/// A channel request whose body names at most the user it acts for.
struct UserActionBody: Decodable, ActsForUser {
    @Checked var userID: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
    }
}
