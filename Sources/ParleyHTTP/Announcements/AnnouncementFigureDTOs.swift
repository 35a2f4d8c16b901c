import ParleyCompliance
import ParleyCore

/// Opens per hour in the first 24 after sending, their rates among the recipients, and both cumulated.
struct OpenRateDTO: Encodable {
    let uniqueID: String?
    let group: String?
    let openCounts: [Int]
    let openRates: [Double]
    let cumulativeOpenCounts: [Int]
    let cumulativeOpenRates: [Double]

    init(uniqueID: String?, group: String?, opens: AnnouncementOpens) {
        self.uniqueID = uniqueID
        self.group = group
        openCounts = opens.openCounts
        openRates = opens.openCounts.map { Announcement.rate($0, of: opens.sent) }
        var total = 0
        cumulativeOpenCounts = opens.openCounts.map { count in
            total += count
            return total
        }
        cumulativeOpenRates = cumulativeOpenCounts.map { Announcement.rate($0, of: opens.sent) }
    }

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case group = "announcement_group"
        case openCounts = "open_counts"
        case openRates = "open_rates"
        case cumulativeOpenCounts = "cumulative_open_counts"
        case cumulativeOpenRates = "cumulative_open_rates"
    }
}

struct OpenStatusDTO: Encodable {
    let openStatus: [Entry]
    let next: String

    struct Entry: Encodable {
        let userID: String
        let channelURL: String
        let hasOpened: Bool
        let sentAt: Int64
        let openAt: Int64?

        init(_ recipient: AnnouncementRecipient) {
            userID = recipient.userID
            channelURL = recipient.channelURL
            hasOpened = recipient.openedAt != nil
            sentAt = recipient.sentAt
            openAt = recipient.openedAt
        }

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case channelURL = "channel_url"
            case hasOpened = "has_opened"
            case sentAt = "sent_at"
            case openAt = "open_at"
        }
    }

    enum CodingKeys: String, CodingKey {
        case next
        case openStatus = "open_status"
    }
}

struct StatisticsDTO: Encodable {
    let statistics: [Entry]

    struct Entry: Encodable {
        let dateRange: String
        let total: Int
        let completed: Int
        let canceled: Int
        let stopped: Int
        let targetChannels: Int
        let targetUsers: Int
        let sentChannels: Int
        let sentUsers: Int
        let opened: Int
        let openRate: Double

        init(_ period: AnnouncementPeriod) {
            dateRange = period.dateRange
            total = period.total
            completed = period.completed
            canceled = period.canceled
            stopped = period.stopped
            targetChannels = period.targetChannels
            targetUsers = period.targetUsers
            sentChannels = period.sentChannels
            sentUsers = period.sentUsers
            opened = period.opened
            openRate = Announcement.rate(period.opened, of: period.sentUsers)
        }

        enum CodingKeys: String, CodingKey {
            case dateRange = "date_range"
            case total = "total_announcement_count"
            case completed = "completed_announcement_count"
            case canceled = "canceled_announcement_count"
            case stopped = "stopped_announcement_count"
            case targetChannels = "target_channel_count"
            case targetUsers = "target_user_count"
            case sentChannels = "sent_channel_count"
            case sentUsers = "sent_user_count"
            case opened = "open_count"
            case openRate = "open_rate"
        }
    }
}

struct GroupsDTO: Encodable {
    let announcementGroups: [String]
    let next: String

    enum CodingKeys: String, CodingKey {
        case next
        case announcementGroups = "announcement_groups"
    }
}
