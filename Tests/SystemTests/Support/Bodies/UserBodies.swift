/// The user resource (API.md §2.1). The private fields are there for the admin and the user
/// themself only, the session token only when creating asked for one.
struct UserBody: Decodable {
    let userID: String
    let nickname: String
    let profileURL: String
    let isOnline: Bool
    let lastSeenAt: Int
    let isActive: Bool?
    let createdAt: Int?
    let metadata: [String: String]?
    let sessionToken: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nickname
        case profileURL = "profile_url"
        case isOnline = "is_online"
        case lastSeenAt = "last_seen_at"
        case isActive = "is_active"
        case createdAt = "created_at"
        case metadata
        case sessionToken = "session_token"
    }
}

/// The basic form of a user embedded in channels and messages (API.md §2.1).
struct BasicUserBody: Decodable {
    let userID: String
    let nickname: String
    let profileURL: String
    let isActive: Bool

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nickname
        case profileURL = "profile_url"
        case isActive = "is_active"
    }
}

/// `POST /v3/users/{user_id}/token`.
struct SessionTokenBody: Decodable {
    let userID: String
    let token: String
    let expiresAt: Int

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case token
        case expiresAt = "expires_at"
    }
}

/// `/v3/users/{user_id}/channel_invitation_preference`.
struct InvitationPreferenceBody: Decodable {
    let autoAccept: Bool

    enum CodingKeys: String, CodingKey {
        case autoAccept = "auto_accept"
    }
}
