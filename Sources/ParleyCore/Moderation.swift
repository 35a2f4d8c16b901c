/// The two kinds of channel (API.md §3, §8): moderation serves both.
public enum ChannelKind: String, Sendable, Codable, CaseIterable {
    case group
    case open

    /// The path segment of its routes (`/v3/group_channels/…`).
    public var pathSegment: String { rawValue + "_channels" }
}

/// A ban or a mute of a user in a channel (API.md §7.1, §7.2). In force while `endAt` is -1
/// (permanent) or later than now: expiry is decided when it is read, never by a sweeper.
public struct Restriction: Sendable, Equatable, Codable {
    public let user: BasicUser
    public let startAt: Int64
    public let endAt: Int64
    public let description: String

    public init(user: BasicUser, startAt: Int64, endAt: Int64, description: String) {
        self.user = user
        self.startAt = startAt
        self.endAt = endAt
        self.description = description
    }

    public static let permanent: Int64 = -1

    public func isInForce(at now: Int64) -> Bool { Self.inForce(endAt: endAt, at: now) }

    public static func inForce(endAt: Int64, at now: Int64) -> Bool { endAt == permanent || endAt > now }

    /// Milliseconds left, -1 for a permanent one.
    public func remaining(at now: Int64) -> Int64 { endAt == Self.permanent ? -1 : max(0, endAt - now) }
}

/// Which of the two a request is about.
public enum RestrictionKind: String, Sendable {
    case ban
    case mute
}

/// A ban or mute to impose: `seconds` -1 for a permanent one.
public struct NewRestriction: Sendable {
    public let userID: String
    public let seconds: Int64
    public let description: String
    /// The moderator the admin names as acting (`agent_id`); a session user acts as themself.
    public let agentID: String?

    public init(userID: String, seconds: Int64, description: String, agentID: String?) {
        self.userID = userID
        self.seconds = seconds
        self.description = description
        self.agentID = agentID
    }

    /// Its end for a start at `now`.
    public func endAt(from now: Int64) -> Int64 {
        Self.endAt(seconds: seconds, from: now)
    }

    public static func endAt(seconds: Int64, from now: Int64) -> Int64 {
        seconds == -1 ? Restriction.permanent : now + seconds * 1000
    }

    /// -1, or 1 second up to ten years.
    public static func validate(seconds: Int64) throws {
        guard seconds == -1 || (1...315_360_000).contains(seconds) else {
            throw ParleyError.invalidValue("seconds", "must be -1 (permanent) or between 1 and 315360000")
        }
    }
}

/// One moderator action of the audit log (API.md §7.5).
public struct AuditEntry: Sendable, Equatable {
    public let auditID: Int64
    public let action: AuditAction
    /// The acting user; nil for the admin.
    public let actorID: String?
    public let targetUserID: String?
    public let channelKind: ChannelKind?
    public let channelURL: String?
    public let messageID: Int64?
    public let details: [String: String]
    public let createdAt: Int64

    public init(
        auditID: Int64, action: AuditAction, actorID: String?, targetUserID: String?, channelKind: ChannelKind?, channelURL: String?,
        messageID: Int64?, details: [String: String], createdAt: Int64
    ) {
        self.auditID = auditID
        self.action = action
        self.actorID = actorID
        self.targetUserID = targetUserID
        self.channelKind = channelKind
        self.channelURL = channelURL
        self.messageID = messageID
        self.details = details
        self.createdAt = createdAt
    }
}

/// The actions the audit log records (API.md §7.5).
public enum AuditAction: String, Sendable, CaseIterable, Codable {
    case ban, unban, mute, unmute, freeze, unfreeze
    case operatorsAdded = "operators_added"
    case operatorsRemoved = "operators_removed"
    case messageDeleted = "message_deleted"
    case channelDeleted = "channel_deleted"
    case userDeactivated = "user_deactivated"
    case reportResolved = "report_resolved"
    case gdprRequested = "gdpr_requested"
}

/// An audit entry to append, in the transaction of its action.
public struct NewAuditEntry: Sendable {
    public let action: AuditAction
    public let actorID: String?
    public let targetUserID: String?
    public let channelKind: ChannelKind?
    public let channelURL: String?
    public let messageID: Int64?
    public let details: [String: String]

    public init(
        _ action: AuditAction, actorID: String?, targetUserID: String? = nil, channelKind: ChannelKind? = nil, channelURL: String? = nil,
        messageID: Int64? = nil, details: [String: String] = [:]
    ) {
        self.action = action
        self.actorID = actorID
        self.targetUserID = targetUserID
        self.channelKind = channelKind
        self.channelURL = channelURL
        self.messageID = messageID
        self.details = details
    }
}

/// The filters of `GET /v3/audit_logs`.
public struct AuditFilter: Sendable {
    public var action: AuditAction?
    public var actorID: String?
    public var targetUserID: String?
    public var channelURL: String?
    public var startTS: Int64?
    public var endTS: Int64?

    public init() {}
}
