import ParleyCore
import ParleyUsers

/// The user resource of API.md §2.1. For callers who may only see the public fields, the private
/// ones (`is_active`, `created_at`, `metadata`) are left out.
struct UserDTO: Encodable {
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
}

struct UserListDTO: Encodable {
    let users: [UserDTO]
    let next: String
}

struct SessionTokenDTO: Encodable {
    let user_id: String
    let token: String
    let expires_at: Int64

    init(_ token: IssuedSessionToken) {
        user_id = token.userID
        self.token = token.token
        expires_at = token.expiresAt
    }
}

struct InvitationPreferenceDTO: Encodable {
    let auto_accept: Bool
}
