import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import ParleyUsers

/// The user resource of API.md §2.1. For callers who may only see the public fields, the private
/// ones (`is_active`, `created_at`, `metadata`) are left out.
struct UserDTO: JSONWritable {
    let userID: String
    let nickname: String
    let profileURL: String
    let isOnline: Bool
    let lastSeenAt: Int64
    let isActive: Bool?
    let createdAt: Int64?
    let metadata: [String: String]?
    var sessionToken: String?
    var sessionTokenExpiresAt: Int64?

    init(_ view: UserView) {
        self.init(view.user, full: view.isFull)
    }

    init(_ user: User, full: Bool = true) {
        userID = user.userID
        nickname = user.nickname
        profileURL = user.profileURL
        isOnline = user.isOnline
        lastSeenAt = user.lastSeenAt
        isActive = full ? user.isActive : nil
        createdAt = full ? user.createdAt : nil
        metadata = full ? user.metadata : nil
    }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", userID)
            json.field("nickname", nickname)
            json.field("profile_url", profileURL)
            json.field("is_online", isOnline)
            json.field("last_seen_at", lastSeenAt)
            if let isActive { json.field("is_active", isActive) }
            if let createdAt { json.field("created_at", createdAt) }
            if let metadata { json.field("metadata", metadata) }
            if let sessionToken { json.field("session_token", sessionToken) }
            if let sessionTokenExpiresAt { json.field("session_token_expires_at", sessionTokenExpiresAt) }
        }
    }
}

/// A session token as issued (API.md §2.3).
struct SessionTokenDTO: Encodable {
    let userID: String
    let token: String
    let expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case token
        case expiresAt = "expires_at"
    }

    init(_ token: IssuedSessionToken) {
        userID = token.userID
        self.token = token.token
        expiresAt = token.expiresAt
    }
}

/// `{ "auto_accept": true }` (API.md §2.4).
struct InvitationPreferenceDTO: Encodable {
    let autoAccept: Bool

    enum CodingKeys: String, CodingKey {
        case autoAccept = "auto_accept"
    }
}
