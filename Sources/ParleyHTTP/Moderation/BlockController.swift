import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration
import ParleyRepresentations

/// Blocks (API.md §7.3): `/v3/users/{user_id}/block`.
struct BlockController {
    let blocks: BlockService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("users/{user_id}/block", use: block)
        routes.get("users/{user_id}/block", use: list)
        routes.delete("users/{user_id}/block/{target_id}", use: unblock)
        return routes
    }

    /// The union of `target_id`, `user_ids` and `users`: Sendbird's SDKs send all three.
    @Sendable func block(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: BlockBody.self, context: context)
        let named = (body.targetID.map { [$0] } ?? []) + (body.userIDs ?? []) + (body.users ?? []).map(\.userID)
        let targets = try Validation.userIDs(named, field: "target_id")
        let blocked = try await blocks.block(context.caller, try context.pathParameter("user_id"), targetIDs: targets)
        return JSONResponse.make(UserListDTO(users: blocked))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (limit, token) = try query.page()
        let page = try await blocks.list(
            context.caller, try context.pathParameter("user_id"),
            among: try query.list("user_ids").map { try Validation.userIDs($0, field: "user_ids") },
            limit: limit, pageToken: token)
        return JSONResponse.make(ListDTO(key: "users", page: page) { BasicUserDTO(user: $0) })
    }

    @Sendable func unblock(_ request: Request, _ context: CallerContext) async throws -> Response {
        try await blocks.unblock(context.caller, try context.pathParameter("user_id"), targetID: try context.pathParameter("target_id"))
        return JSONResponse.empty()
    }
}

/// `POST /v3/users/{user_id}/block`.
struct BlockBody: Decodable {
    @Checked var targetID: String?
    @Checked var userIDs: [String]?
    var users: [UserReference]?

    enum CodingKeys: String, CodingKey {
        case targetID = "target_id"
        case userIDs = "user_ids"
        case users
    }
}

/// A user named by id, or by an object with `user_id` (both forms are in use).
struct UserReference: Decodable {
    let userID: String

    private enum CodingKeys: String, CodingKey { case userID = "user_id" }

    init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            userID = id
        } else {
            userID = try decoder.container(keyedBy: CodingKeys.self).decode(Checked<String>.self, forKey: .userID).wrappedValue
        }
        try userID.requireNoControlCharacters(field: "users")
    }
}

/// `{ "users": [...] }`
struct UserListDTO: JSONWritable {
    let users: [BasicUser]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("users")
            json.array { json in users.forEach { json.value(BasicUserDTO(user: $0)) } }
        }
    }
}
