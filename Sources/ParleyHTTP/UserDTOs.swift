import ParleyCore
import ParleyUsers

/// The user resource of API.md §2.1. For callers who may only see the public fields, the private
/// ones (`is_active`, `created_at`, `metadata`) are left out.
struct UserDTO: JSONWritable {
    let user_id: String
    let nickname: String
    let profile_url: String
    let is_online: Bool
    let last_seen_at: Int64
    let is_active: Bool?
    let created_at: Int64?
    let metadata: [String: String]?
    var session_token: String?
    var session_token_expires_at: Int64?

    init(_ view: UserView) {
        self.init(view.user, full: view.isFull)
    }

    init(_ user: User, full: Bool = true) {
        user_id = user.userID
        nickname = user.nickname
        profile_url = user.profileURL
        // Presence arrives with the realtime event stream; until a user can hold one, nobody is online.
        is_online = false
        last_seen_at = user.lastSeenAt
        is_active = full ? user.isActive : nil
        created_at = full ? user.createdAt : nil
        metadata = full ? user.metadata : nil
    }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", user_id)
            json.field("nickname", nickname)
            json.field("profile_url", profile_url)
            json.field("is_online", is_online)
            json.field("last_seen_at", last_seen_at)
            if let is_active { json.field("is_active", is_active) }
            if let created_at { json.field("created_at", created_at) }
            if let metadata { json.field("metadata", metadata) }
            if let session_token { json.field("session_token", session_token) }
            if let session_token_expires_at { json.field("session_token_expires_at", session_token_expires_at) }
        }
    }
}

struct SessionTokenDTO: JSONWritable {
    let user_id: String
    let token: String
    let expires_at: Int64

    init(_ token: IssuedSessionToken) {
        user_id = token.userID
        self.token = token.token
        expires_at = token.expiresAt
    }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", user_id)
            json.field("token", token)
            json.field("expires_at", expires_at)
        }
    }
}

struct InvitationPreferenceDTO: JSONWritable {
    let auto_accept: Bool

    func write(to json: inout JSONWriter) {
        json.object { $0.field("auto_accept", auto_accept) }
    }
}
