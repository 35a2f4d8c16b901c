import ParleyCore

/// An announcement as Sendbird shows it, with its counts and open rate.
struct AnnouncementDTO: Encodable {
    let uniqueID: String
    let group: String
    let message: Message
    let targetAt: String
    let targetList: [String]
    let targetChannelType: String
    let targetUserCount: Int
    let targetChannelCount: Int
    let createChannel: Bool
    let createChannelOptions: Announcement.ChannelOptions
    let enablePush: Bool
    let markAsRead = true
    let status: String
    let scheduledAt: Int64
    let endAt: Int64
    let ceaseAt: String
    let resumeAt: String
    let completedAt: Int64?
    let sentUserCount: Int
    let sentChannelCount: Int
    let openCount: Int
    let openRate: Double
    let createdAt: Int64

    struct Message: Encodable {
        let type: String
        let userID: String
        let content: String
        let customType: String
        let data: String

        enum CodingKeys: String, CodingKey {
            case type, content, data
            case userID = "user_id"
            case customType = "custom_type"
        }
    }

    init(_ announcement: Announcement) {
        uniqueID = announcement.uniqueID
        group = announcement.group
        message = Message(
            type: announcement.messageType.rawValue, userID: announcement.senderID, content: announcement.content,
            customType: announcement.customType, data: announcement.data)
        targetAt = announcement.target.rawValue
        targetList = announcement.targetList
        targetChannelType = announcement.channelType.rawValue
        targetUserCount = announcement.progress.targetUserCount
        targetChannelCount = announcement.progress.targetChannelCount
        createChannel = announcement.createChannel
        createChannelOptions = announcement.channelOptions
        enablePush = announcement.enablePush
        status = announcement.status.rawValue
        scheduledAt = announcement.scheduledAt
        endAt = announcement.endAt
        ceaseAt = announcement.ceaseAt ?? ""
        resumeAt = announcement.resumeAt ?? ""
        completedAt = announcement.completedAt
        sentUserCount = announcement.progress.sentUserCount
        sentChannelCount = announcement.progress.sentChannelCount
        openCount = announcement.openCount
        openRate = Announcement.rate(announcement.openCount, of: announcement.progress.sentUserCount)
        createdAt = announcement.createdAt
    }

    enum CodingKeys: String, CodingKey {
        case message, status
        case uniqueID = "unique_id"
        case group = "announcement_group"
        case targetAt = "target_at"
        case targetList = "target_list"
        case targetChannelType = "target_channel_type"
        case targetUserCount = "target_user_count"
        case targetChannelCount = "target_channel_count"
        case createChannel = "create_channel"
        case createChannelOptions = "create_channel_options"
        case enablePush = "enable_push"
        case markAsRead = "mark_as_read"
        case scheduledAt = "scheduled_at"
        case endAt = "end_at"
        case ceaseAt = "cease_at"
        case resumeAt = "resume_at"
        case completedAt = "completed_at"
        case sentUserCount = "sent_user_count"
        case sentChannelCount = "sent_channel_count"
        case openCount = "open_count"
        case openRate = "open_rate"
        case createdAt = "created_at"
    }
}

struct AnnouncementListDTO: Encodable {
    let announcements: [AnnouncementDTO]
    let next: String
}
