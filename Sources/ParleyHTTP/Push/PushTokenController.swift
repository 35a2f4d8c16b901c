import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyPush

/// Device tokens (API.md §12.1): `/v3/users/{user_id}/push…` and `/v3/push/device_tokens/…`.
struct PushTokenController {
    let tokens: PushTokenService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("users/{user_id}/push/{token_type}", use: register)
        routes.get("users/{user_id}/push/{token_type}", use: list)
        routes.delete("users/{user_id}/push/{token_type}/{token}", use: remove)
        routes.delete("users/{user_id}/push", use: removeAll)
        routes.get("push/device_tokens/{token_type}/{token}", use: owner)
        routes.delete("push/device_tokens/{token_type}/{token}", use: removeFromOwner)
        return routes
    }

    @Sendable func register(_ request: Request, _ context: CallerContext) async throws -> Response {
        let type = try PushTokens.type(try context.pathParameter("token_type"))
        let body = try await request.decode(as: PushTokenBody.self, context: context)
        let token = try body.token(of: type)
        let user = try await tokens.register(context.caller, try context.pathParameter("user_id"), token)
        return JSONResponse.make(PushTokenDTO(token: .one(token.token), type: type, user: user))
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let type = try PushTokens.type(try context.pathParameter("token_type"))
        let (limit, pageToken) = try QueryParameters(request).page()
        let (user, page) = try await tokens.list(
            context.caller, try context.pathParameter("user_id"), type, limit: limit, pageToken: pageToken)
        return JSONResponse.make(PushTokenDTO(token: .list(page.items), type: type, user: user, next: page.next))
    }

    @Sendable func remove(_ request: Request, _ context: CallerContext) async throws -> Response {
        let type = try PushTokens.type(try context.pathParameter("token_type"))
        let token = try Self.pathToken(context)
        let user = try await tokens.remove(context.caller, try context.pathParameter("user_id"), type, token)
        return JSONResponse.make(PushTokenDTO(token: .one(token), user: user))
    }

    @Sendable func removeAll(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (user, removed) = try await tokens.removeAll(context.caller, try context.pathParameter("user_id"))
        return JSONResponse.make(PushTokenDTO(token: .removed(removed), user: user))
    }

    @Sendable func owner(_ request: Request, _ context: CallerContext) async throws -> Response {
        let type = try PushTokens.type(try context.pathParameter("token_type"))
        let owner = try await tokens.owner(context.caller, type, try Self.pathToken(context))
        return JSONResponse.make(TokenOwnersDTO(userIDs: owner.map { [$0] } ?? []))
    }

    @Sendable func removeFromOwner(_ request: Request, _ context: CallerContext) async throws -> Response {
        let type = try PushTokens.type(try context.pathParameter("token_type"))
        let owner = try await tokens.removeFromOwner(context.caller, type, try Self.pathToken(context))
        return JSONResponse.make(TokenOwnersDTO(userIDs: [owner], single: true))
    }

    /// The token a path names: 1 to 4,096 printable ASCII characters, as openapi.yaml says
    /// (400111 otherwise; no registered token is anything else).
    static func pathToken(_ context: CallerContext) throws -> String {
        let token = try context.pathParameter("token")
        guard token.utf8.count <= 4096, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ParleyError.invalidValue("token", "1 to 4,096 printable characters without spaces")
        }
        return token
    }
}

/// `POST /v3/users/{user_id}/push/{token_type}`: the field named for the type.
struct PushTokenBody: Decodable {
    @Checked var gcmRegToken: String?
    @Checked var apnsDeviceToken: String?
    @Checked var huaweiDeviceToken: String?
    var webPushSubscription: WebPushSubscriptionBody?

    enum CodingKeys: String, CodingKey {
        case gcmRegToken = "gcm_reg_token"
        case apnsDeviceToken = "apns_device_token"
        case huaweiDeviceToken = "huawei_device_token"
        case webPushSubscription = "web_push_subscription"
    }

    /// The token of `type`. Every token field the body gives must have its type's form, also one
    /// the path's type does not use: a body is refused whole or taken whole.
    func token(of type: PushTokenType) throws -> PushToken {
        for (other, value) in [(PushTokenType.gcm, gcmRegToken), (.apns, apnsDeviceToken), (.huawei, huaweiDeviceToken)] {
            if let value { _ = try PushTokens.token(value, type: other) }
        }
        let given: String? =
            switch type {
            case .gcm: gcmRegToken
            case .apns: apnsDeviceToken
            case .huawei: huaweiDeviceToken
            case .web: nil
            }
        guard type == .web else {
            guard let given else { throw ParleyError.missing(type.bodyField) }
            return PushToken(type: type, token: try PushTokens.token(given, type: type))
        }
        guard let subscription = webPushSubscription else { throw ParleyError.missing(type.bodyField) }
        return PushToken(
            type: .web, token: try PushTokens.endpoint(subscription.endpoint),
            webKeys: try PushTokens.webKeys(p256dh: subscription.keys.p256dh, auth: subscription.keys.auth))
    }
}

/// A browser's `PushSubscription` as JSON (`expirationTime` and other fields are not kept).
struct WebPushSubscriptionBody: Decodable {
    @Checked var endpoint: String
    let keys: Keys

    struct Keys: Decodable {
        @Checked var p256dh: String
        @Checked var auth: String
    }
}

/// `{ token | tokens, type?, user, next? }` in Sendbird's shapes: one token, a page of them
/// (under both `tokens` and `token`, as Sendbird lists them), or those removed.
struct PushTokenDTO: JSONWritable {
    enum Tokens {
        case one(String)
        case list([String])
        case removed([String])
    }

    let token: Tokens
    var type: PushTokenType?
    let user: User
    var next: String?

    func write(to json: inout JSONWriter) {
        json.object { json in
            switch token {
            case .one(let token):
                json.field("token", token)
            case .list(let tokens):
                for key in ["tokens", "token"] {
                    json.key(key)
                    json.array { json in tokens.forEach { json.string($0) } }
                }
            case .removed(let tokens):
                json.key("token")
                json.array { json in tokens.forEach { json.string($0) } }
            }
            if let type { json.field("type", type.rawValue) }
            json.field("user", UserDTO(user))
            if let next { json.field("next", next) }
        }
    }
}

/// A token's owner: `[{ "user_id" }]` (empty when nobody), or `{ "user_id" }` for a removal.
struct TokenOwnersDTO: JSONWritable {
    let userIDs: [String]
    var single = false

    func write(to json: inout JSONWriter) {
        if single, let userID = userIDs.first {
            json.object { json in json.field("user_id", userID) }
            return
        }
        json.array { json in userIDs.forEach { userID in json.object { json in json.field("user_id", userID) } } }
    }
}
