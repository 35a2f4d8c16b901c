/// What `POST /v3/group_channels` asks for (API.md §3.2), validated for form; the service
/// applies the rules that need the database.
public struct NewGroupChannel: Sendable {
    public var channelURL: String?
    public var userIDs: [String]
    /// Users named with profile fields; the admin's create makes the missing ones.
    public var users: [NewChannelUser]
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isDistinct: Bool
    public var isPublic: Bool
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var accessCode: String?
    public var operatorIDs: [String]
    public var inviterID: String?
    /// Its own retention (API.md §14.3).
    public var messagePolicy = MessagePolicy()

    public init(
        channelURL: String? = nil, userIDs: [String] = [], users: [NewChannelUser] = [], name: String = "",
        coverURL: String = "", customType: String = "", data: String = "", isDistinct: Bool = false,
        isPublic: Bool = false, isSuper: Bool = false, isEphemeral: Bool = false, accessCode: String? = nil,
        operatorIDs: [String] = [], inviterID: String? = nil
    ) {
        self.channelURL = channelURL
        self.userIDs = userIDs
        self.users = users
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.accessCode = accessCode
        self.operatorIDs = operatorIDs
        self.inviterID = inviterID
    }
}

public struct NewChannelUser: Sendable, Equatable {
    public let userID: String
    public let nickname: String?
    public let profileURL: String?

    public init(userID: String, nickname: String?, profileURL: String?) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
    }
}

/// `PUT /v3/group_channels/{url}`: nil fields stay as they are; an empty access code removes it.
public struct GroupChannelUpdate: Sendable {
    public var name: String?
    public var coverURL: String?
    public var customType: String?
    public var data: String?
    public var isPublic: Bool?
    public var isDistinct: Bool?
    public var accessCode: String?
    public var messagePolicy = MessagePolicy()

    public init(
        name: String? = nil, coverURL: String? = nil, customType: String? = nil, data: String? = nil,
        isPublic: Bool? = nil, isDistinct: Bool? = nil, accessCode: String? = nil
    ) {
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isPublic = isPublic
        self.isDistinct = isDistinct
        self.accessCode = accessCode
    }
}

extension Validation {
    public static let maxChannelURLLength = 100
    public static let maxChannelNameLength = 191
    public static let maxCustomTypeLength = 128
    public static let maxAccessCodeLength = 128

    /// 1–100 characters from letters, digits and `_ - .` (API.md §1.4); not `.` or `..`.
    public static func channelURL(_ value: String, field: String = "channel_url") throws -> String {
        try identifier(value, field: field, max: maxChannelURLLength, allowed: "_-.")
    }

    /// A list of user ids, each well-formed, without duplicates.
    public static func userIDs(_ values: [String], field: String) throws -> [String] {
        var seen = Set<String>()
        return try values.compactMap { value in
            _ = try userID(value, field: field)
            return seen.insert(value).inserted ? value : nil
        }
    }

    /// `data`: at most `max` bytes (API.md §1.8 counts bytes, not characters).
    public static func data(_ value: String, field: String = "data", max: Int) throws -> String {
        guard value.utf8.count <= max else { throw ParleyError.tooLong(field, max: max) }
        return value
    }
}
