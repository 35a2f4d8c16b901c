import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/group_channels` (API.md §3.2).
struct NewGroupChannelBody: Decodable {
    var users: [NewChannelUserBody]?
    @Checked var channelURL: String?
    @Checked var userIDs: [String]?
    @Checked var name: String?
    @Checked var coverURL: String?
    @Checked var customType: String?
    @Checked var data: String?
    var isDistinct: Bool?
    var isPublic: Bool?
    var isSuper: Bool?
    var isEphemeral: Bool?
    @Checked var accessCode: String?
    @Checked var operatorIDs: [String]?
    @Checked var inviterID: String?
    @Checked var messageRetentionHours: Int64?
    @Checked var messageSurvivalSeconds: Int64?

    enum CodingKeys: String, CodingKey {
        case users
        case messageRetentionHours = "message_retention_hours"
        case messageSurvivalSeconds = "message_survival_seconds"
        case channelURL = "channel_url"
        case userIDs = "user_ids"
        case name
        case coverURL = "cover_url"
        case customType = "custom_type"
        case data
        case isDistinct = "is_distinct"
        case isPublic = "is_public"
        case isSuper = "is_super"
        case isEphemeral = "is_ephemeral"
        case accessCode = "access_code"
        case operatorIDs = "operator_ids"
        case inviterID = "inviter_id"
    }

    func validated(limits: Limits) throws -> NewGroupChannel {
        let users = try (self.users ?? []).map { try $0.validated() }
        var channel = NewGroupChannel(
            channelURL: try channelURL.map { try Validation.channelURL($0) },
            userIDs: try Validation.userIDs(userIDs ?? [], field: "user_ids"),
            users: users,
            name: try Validation.text(name ?? "", field: "name", max: Validation.maxChannelNameLength),
            coverURL: try Validation.text(coverURL ?? "", field: "cover_url", max: Validation.maxProfileURLLength),
            customType: try Validation.text(customType ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(data ?? "", max: limits.dataBytes),
            isDistinct: isDistinct ?? false,
            isPublic: isPublic ?? false,
            isSuper: isSuper ?? false,
            isEphemeral: isEphemeral ?? false,
            accessCode: try accessCode.map { try Validation.text($0, field: "access_code", max: Validation.maxAccessCodeLength) },
            operatorIDs: try Validation.userIDs(operatorIDs ?? [], field: "operator_ids"),
            inviterID: try inviterID.map { try Validation.userID($0, field: "inviter_id") }
        )
        channel.messagePolicy = try MessagePolicyFields.policy(
            retentionHours: messageRetentionHours, survivalSeconds: messageSurvivalSeconds)
        return channel
    }
}

/// An item of `users`: a user named with the profile to create them with if they do not exist.
struct NewChannelUserBody: Decodable {
    @Checked var userID: String
    @Checked var nickname: String?
    @Checked var profileURL: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case nickname
        case profileURL = "profile_url"
    }

    func validated() throws -> NewChannelUser {
        NewChannelUser(
            userID: try Validation.userID(userID, field: "users[].user_id"),
            nickname: try nickname.map { try Validation.text($0, field: "users[].nickname", max: Validation.maxNicknameLength) },
            profileURL: try profileURL.map { try Validation.text($0, field: "users[].profile_url", max: Validation.maxProfileURLLength) }
        )
    }
}

/// `PUT /v3/group_channels/{channel_url}` (API.md §3.9): absent fields stay as they are.
struct GroupChannelUpdateBody: Decodable {
    @Checked var name: String?
    @Checked var coverURL: String?
    @Checked var customType: String?
    @Checked var data: String?
    var isPublic: Bool?
    var isDistinct: Bool?
    @Checked var accessCode: String?
    @Checked var messageRetentionHours: Int64?
    @Checked var messageSurvivalSeconds: Int64?

    enum CodingKeys: String, CodingKey {
        case messageRetentionHours = "message_retention_hours"
        case messageSurvivalSeconds = "message_survival_seconds"
        case name
        case coverURL = "cover_url"
        case customType = "custom_type"
        case data
        case isPublic = "is_public"
        case isDistinct = "is_distinct"
        case accessCode = "access_code"
    }

    func validated(limits: Limits) throws -> GroupChannelUpdate {
        var update = GroupChannelUpdate(
            name: try name.map { try Validation.text($0, field: "name", max: Validation.maxChannelNameLength) },
            coverURL: try coverURL.map { try Validation.text($0, field: "cover_url", max: Validation.maxProfileURLLength) },
            customType: try customType.map { try Validation.text($0, field: "custom_type", max: Validation.maxCustomTypeLength) },
            data: try data.map { try Validation.data($0, max: limits.dataBytes) },
            isPublic: isPublic,
            isDistinct: isDistinct,
            accessCode: try accessCode.map { try Validation.text($0, field: "access_code", max: Validation.maxAccessCodeLength) }
        )
        update.messagePolicy = try MessagePolicyFields.policy(
            retentionHours: messageRetentionHours, survivalSeconds: messageSurvivalSeconds)
        return update
    }
}

/// `message_retention_hours` (0: off) and `message_survival_seconds` (0 or -1: off), API.md §14.3.
enum MessagePolicyFields {
    static func policy(retentionHours: Int64?, survivalSeconds: Int64?) throws -> MessagePolicy {
        if let hours = retentionHours, !(0...Int64(MessagePolicy.maxRetentionHours)).contains(hours) {
            throw ParleyError.invalidValue("message_retention_hours", "must be between 0 (off) and \(MessagePolicy.maxRetentionHours)")
        }
        if let seconds = survivalSeconds, !(-1...Int64(MessagePolicy.maxSurvivalSeconds)).contains(seconds) {
            throw ParleyError.invalidValue(
                "message_survival_seconds", "must be -1 or 0 (off), or up to \(MessagePolicy.maxSurvivalSeconds)")
        }
        return MessagePolicy(retentionHours: retentionHours.map { Int($0) }, survivalSeconds: survivalSeconds.map { Int(max($0, 0)) })
    }
}
