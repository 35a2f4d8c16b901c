import Hummingbird
import ParleyCore
import ParleyEvents
import ParleyHTTPConventions

/// Typing indicators over REST (API.md §6.5): `POST` starts and `DELETE` ends the typing of
/// `user_ids` (the session user when none are named) in a group channel. Nothing is stored:
/// the change goes to the channel's joined members on their event streams.
struct TypingController {
    let realtime: Realtime

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("group_channels/{channel_url}/typing") { request, context in try await typing(request, context, started: true) }
        routes.delete("group_channels/{channel_url}/typing") { request, context in try await typing(request, context, started: false) }
        return routes
    }

    /// More would be one request fanning out into a burst no typist produces.
    static let maxUsers = 100

    private func typing(_ request: Request, _ context: CallerContext, started: Bool) async throws -> Response {
        let body = try await request.decode(as: TypingBody.self, context: context)
        var userIDs = body.userIDs ?? []
        if userIDs.isEmpty, let own = context.caller.userID { userIDs = [own] }
        guard !userIDs.isEmpty else { throw ParleyError.missing("user_ids") }
        guard userIDs.count <= Self.maxUsers else {
            throw ParleyError.invalidValue("user_ids", "at most \(Self.maxUsers) users")
        }
        try await realtime.typing(
            context.caller, try context.pathParameter("channel_url"), userIDs: try Validation.userIDs(userIDs, field: "user_ids"),
            started: started
        )
        return JSONResponse.empty()
    }
}

/// `{ "user_ids": [...] }`
struct TypingBody: Decodable {
    @Checked var userIDs: [String]?

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
    }
}
