/// What a report is about (API.md §7.4).
public enum ReportType: String, Sendable, CaseIterable, Codable {
    case message, user, channel
}

public enum ReportCategory: String, Sendable, CaseIterable, Codable {
    case suspicious, harassing, inappropriate, spam
}

/// Where a report stands in the review queue.
public enum ReportStatus: String, Sendable, CaseIterable, Codable {
    case open, resolved, dismissed
}

/// The channel a report names, as it was when reported.
public struct ReportedChannel: Sendable, Equatable, Codable {
    public let kind: ChannelKind
    public let channelURL: String
    public let name: String
    public let customType: String

    public init(kind: ChannelKind, channelURL: String, name: String, customType: String) {
        self.kind = kind
        self.channelURL = channelURL
        self.name = name
        self.customType = customType
    }
}

/// A report as stored and shown.
public struct Report: Sendable, Equatable, Codable {
    public let reportID: Int64
    public let type: ReportType
    public let category: ReportCategory
    public let reportingUser: BasicUser
    public let offendingUser: BasicUser?
    /// The message as its reporter read it when reporting, whatever happened to it since.
    public let reportedMessage: Message?
    public let channel: ReportedChannel?
    public let description: String
    public let status: ReportStatus
    public let resolution: String?
    /// Who last changed the status: a user id, or "admin".
    public let resolvedBy: String?
    public let createdAt: Int64
    public let updatedAt: Int64

    public init(
        reportID: Int64, type: ReportType, category: ReportCategory, reportingUser: BasicUser, offendingUser: BasicUser?,
        reportedMessage: Message?, channel: ReportedChannel?, description: String, status: ReportStatus, resolution: String?,
        resolvedBy: String?, createdAt: Int64, updatedAt: Int64
    ) {
        self.reportID = reportID
        self.type = type
        self.category = category
        self.reportingUser = reportingUser
        self.offendingUser = offendingUser
        self.reportedMessage = reportedMessage
        self.channel = channel
        self.description = description
        self.status = status
        self.resolution = resolution
        self.resolvedBy = resolvedBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A report to file.
public struct NewReport: Sendable {
    public let type: ReportType
    public let category: ReportCategory
    public let reportingUserID: String
    public let offendingUserID: String?
    public let channel: ReportedChannel?
    public let message: Message?
    public let description: String

    public init(
        type: ReportType, category: ReportCategory, reportingUserID: String, offendingUserID: String?, channel: ReportedChannel?,
        message: Message?, description: String
    ) {
        self.type = type
        self.category = category
        self.reportingUserID = reportingUserID
        self.offendingUserID = offendingUserID
        self.channel = channel
        self.message = message
        self.description = description
    }

}

/// What a report is about, as the request names it.
public enum ReportTarget: Sendable {
    case message(ChannelKind, String, Int64)
    case user(String)
    case channel(ChannelKind, String)

    /// One key per target: one reporter reporting the same key twice within the folding window
    /// files one report.
    public var key: String {
        switch self {
        case .message(let kind, let url, let id): "message|\(kind.rawValue)|\(url)|\(id)"
        case .user(let id): "user|\(id)"
        case .channel(let kind, let url): "channel|\(kind.rawValue)|\(url)"
        }
    }
}

/// The filters of the report lists.
public struct ReportFilter: Sendable {
    public var status: ReportStatus?
    public var type: ReportType?
    public var startTS: Int64?
    public var endTS: Int64?
    public var channel: (kind: ChannelKind, channelURL: String)?
    public var messageID: Int64?
    public var offendingUserID: String?

    public init() {}

    /// The filters as text, for the page token's scope.
    public var scope: String {
        [
            status?.rawValue, type?.rawValue, startTS.map(String.init), endTS.map(String.init), channel?.kind.rawValue, channel?.channelURL,
            messageID.map(String.init), offendingUserID
        ].map { $0 ?? "" }.joined(separator: "|")
    }
}
