import ParleyCore
import ParleyHTTPConventions
import ParleyUsers

/// `POST /v3/users` (API.md §2.2).
struct NewUserBody: Decodable {
    @Checked var userID: String
    @Checked var nickname: String
    @Checked var profileURL: String?
    @Checked var metadata: [String: String]?
    var issueSessionToken: Bool?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nickname
        case profileURL = "profile_url"
        case metadata
        case issueSessionToken = "issue_session_token"
    }

    func validated() throws -> NewUser {
        try NewUser.checked(
            userID: userID, nickname: nickname, profileURL: profileURL, metadata: metadata, issueSessionToken: issueSessionToken ?? false)
    }
}

/// `PUT /v3/users/{user_id}`: absent fields stay as they are.
struct UserUpdateBody: Decodable {
    @Checked var nickname: String?
    @Checked var profileURL: String?
    var isActive: Bool?
    var leaveAllWhenDeactivated: Bool?

    enum CodingKeys: String, CodingKey {
        case nickname
        case profileURL = "profile_url"
        case isActive = "is_active"
        case leaveAllWhenDeactivated = "leave_all_when_deactivated"
    }

    func validated() throws -> UserUpdate {
        UserUpdate(
            nickname: try nickname.map { try Validation.text($0, field: "nickname", max: Validation.maxNicknameLength) },
            profileURL: try profileURL.map { try Validation.text($0, field: "profile_url", max: Validation.maxProfileURLLength) },
            isActive: isActive,
            leaveAllWhenDeactivated: leaveAllWhenDeactivated ?? true
        )
    }
}

/// `POST /v3/users/{user_id}/token`.
struct SessionTokenBody: Decodable {
    @Checked var expiresAt: Int64?

    enum CodingKeys: String, CodingKey {
        case expiresAt = "expires_at"
    }
}

/// `PUT /v3/users/{user_id}/channel_invitation_preference`.
struct InvitationPreferenceBody: Decodable {
    @Checked var autoAccept: Bool

    enum CodingKeys: String, CodingKey {
        case autoAccept = "auto_accept"
    }
}
