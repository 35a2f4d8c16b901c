/// A group channel's own fields (API.md §3.1), the same for every viewer.
public struct GroupChannel: Sendable, Equatable, Codable {
    public var channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isDistinct: Bool
    public var isPublic: Bool
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var isAccessCodeRequired: Bool
    public var freeze: Bool
    public var memberCount: Int
    public var joinedMemberCount: Int
    public var createdAt: Int64
    public var createdBy: BasicUser?
    public var operators: [BasicUser]
    /// Its own retention (API.md §14.3); nil: off. Optional, so that events stored before these
    /// fields existed still decode.
    public var messageRetentionHours: Int?
    public var messageSurvivalSeconds: Int?

    public init(
        channelURL: String, name: String, coverURL: String, customType: String, data: String,
        isDistinct: Bool, isPublic: Bool, isSuper: Bool, isEphemeral: Bool, isAccessCodeRequired: Bool,
        freeze: Bool, memberCount: Int, joinedMemberCount: Int, createdAt: Int64,
        createdBy: BasicUser?, operators: [BasicUser]
    ) {
        self.channelURL = channelURL
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.isAccessCodeRequired = isAccessCodeRequired
        self.freeze = freeze
        self.memberCount = memberCount
        self.joinedMemberCount = joinedMemberCount
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.operators = operators
    }
}
