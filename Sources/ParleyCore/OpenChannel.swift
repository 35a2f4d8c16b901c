/// An open channel (API.md §8.1), the same for every viewer.
public struct OpenChannel: Sendable, Equatable, Codable {
    public var channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isEphemeral: Bool
    public var freeze: Bool
    public var participantCount: Int
    public var createdAt: Int64
    public var createdBy: BasicUser?
    public var operators: [BasicUser]
    /// The pinned message ids, newest pin first, and the newest pinned message (API.md §13.2):
    /// on the channel resource, not in events (nil there, and not coded).
    public var pinnedMessageIDs: [Int64]?
    /// Its own retention (API.md §14.3); nil: off (optional: stored events predate it).
    public var messageRetentionHours: Int?
    public var lastPinnedMessage: Message?

    enum CodingKeys: String, CodingKey {
        case channelURL, name, coverURL, customType, data, isEphemeral, freeze, participantCount, createdAt, createdBy, operators
    }

    public init(
        channelURL: String, name: String, coverURL: String, customType: String, data: String, isEphemeral: Bool, freeze: Bool,
        participantCount: Int, createdAt: Int64, createdBy: BasicUser?, operators: [BasicUser]
    ) {
        self.channelURL = channelURL
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isEphemeral = isEphemeral
        self.freeze = freeze
        self.participantCount = participantCount
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.operators = operators
    }
}

/// A new open channel (API.md §8.2), validated for form.
public struct NewOpenChannel: Sendable {
    public var channelURL: String?
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isEphemeral: Bool
    public var operatorIDs: [String]
    /// Its own retention (API.md §14.3); nil: none.
    public var messageRetentionHours: Int?

    public init(
        channelURL: String? = nil, name: String = "", coverURL: String = "", customType: String = "", data: String = "",
        isEphemeral: Bool = false, operatorIDs: [String] = []
    ) {
        self.channelURL = channelURL
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isEphemeral = isEphemeral
        self.operatorIDs = operatorIDs
    }
}

/// A change to an open channel; nil fields stay. `operatorIDs` replaces the operators.
public struct OpenChannelUpdate: Sendable {
    public var name: String?
    public var coverURL: String?
    public var customType: String?
    public var data: String?
    public var operatorIDs: [String]?
    public var messageRetentionHours: Int?

    public init(
        name: String? = nil, coverURL: String? = nil, customType: String? = nil, data: String? = nil, operatorIDs: [String]? = nil
    ) {
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.operatorIDs = operatorIDs
    }
}

/// What the open channel list shows (API.md §8.2): every condition given must hold; text
/// matches ignore case.
public struct OpenChannelFilter: Sendable {
    public var nameContains: String?
    public var urlContains: String?
    public var customTypes: [String]?
    public var showFrozen = true

    public init(nameContains: String? = nil, urlContains: String? = nil, customTypes: [String]? = nil, showFrozen: Bool = true) {
        self.nameContains = nameContains
        self.urlContains = urlContains
        self.customTypes = customTypes
        self.showFrozen = showFrozen
    }
}

/// A participant of an open channel as the participant list shows them (API.md §8.3).
public struct Participant: Sendable, Equatable {
    public let user: BasicUser
    public let isOnline: Bool
    public let lastSeenAt: Int64
    public let isMuted: Bool
    public let enteredAt: Int64

    public init(user: BasicUser, isOnline: Bool, lastSeenAt: Int64, isMuted: Bool, enteredAt: Int64) {
        self.user = user
        self.isOnline = isOnline
        self.lastSeenAt = lastSeenAt
        self.isMuted = isMuted
        self.enteredAt = enteredAt
    }
}

/// A channel of either kind as a response shows it: moderation answers with the channel of
/// whichever kind it was asked about.
public enum ChannelResource: Sendable {
    case group(ChannelView)
    case open(OpenChannel)
}
