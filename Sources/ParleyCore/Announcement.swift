/// An announcement (API.md §14.4, Sendbird's `/v3/announcements`): one message sent by the admin
/// to many channels, or to many users in their 1-to-1 channels with the sender.
public struct Announcement: Sendable, Equatable {
    /// Whom it reaches (Sendbird's `target_at`).
    public enum Target: String, Sendable, CaseIterable {
        /// Every group channel the sender has joined (of `channelType`).
        case senderAllChannels = "sender_all_channels"
        /// The channels of `targetList`.
        case channels = "target_channels"
        /// The users of `targetList`, each in their distinct channel with the sender, made when missing.
        case usersIncludingNewChannels = "target_users_included_new_channels"
        /// The users of `targetList` who have a distinct channel with the sender already.
        case usersOnlyExistingChannels = "target_users_only_existing_channels"

        public var isUsers: Bool { self == .usersIncludingNewChannels || self == .usersOnlyExistingChannels }
    }

    /// Which of the sender's channels `senderAllChannels` means (Sendbird's `target_channel_type`).
    public enum ChannelType: String, Sendable, CaseIterable {
        case all, distinct
        case nonDistinct = "non-distinct"
    }

    public enum Status: String, Sendable, CaseIterable {
        case scheduled, running, paused, canceled, stopped, completed

        /// Over: nothing changes it any more.
        public var isFinal: Bool { self == .canceled || self == .stopped || self == .completed }
    }

    /// The channels it makes for users without one (Sendbird's `create_channel_options`).
    public struct ChannelOptions: Sendable, Equatable, Codable {
        public var name = ""
        public var coverURL = ""
        public var customType = ""
        public var data = ""
        public var distinct = true

        public init() {}

        enum CodingKeys: String, CodingKey {
            case name, data, distinct
            case coverURL = "cover_url"
            case customType = "custom_type"
        }
    }

    public var uniqueID: String
    public var group: String
    public var messageType: MessageType
    public var senderID: String
    public var content: String
    public var customType: String
    public var data: String
    public var target: Target
    public var targetList: [String]
    public var channelType: ChannelType
    public var createChannel: Bool
    public var channelOptions: ChannelOptions
    public var enablePush: Bool
    public var scheduledAt: Int64
    /// 0: none.
    public var endAt: Int64
    /// A daily pause, UTC "HHMM" to "HHMM" (both or neither).
    public var ceaseAt: String?
    public var resumeAt: String?
    public var status: Status
    public var progress = Progress()
    public var createdAt: Int64
    public var completedAt: Int64?
    /// Recipients who opened it (read past it); filled in where a listing asks for it.
    public var openCount = 0

    /// How far the sending got, and its counts.
    public struct Progress: Sendable, Equatable {
        public var nextTarget = 0
        public var nextChannel = ""
        public var targetUserCount = 0
        public var targetChannelCount = 0
        public var sentUserCount = 0
        public var sentChannelCount = 0

        public init() {}
    }

    public init(
        uniqueID: String, group: String, messageType: MessageType, senderID: String, content: String, customType: String, data: String,
        target: Target, targetList: [String], channelType: ChannelType, createChannel: Bool, channelOptions: ChannelOptions,
        enablePush: Bool, scheduledAt: Int64, endAt: Int64, ceaseAt: String?, resumeAt: String?, status: Status, createdAt: Int64
    ) {
        self.uniqueID = uniqueID
        self.group = group
        self.messageType = messageType
        self.senderID = senderID
        self.content = content
        self.customType = customType
        self.data = data
        self.target = target
        self.targetList = targetList
        self.channelType = channelType
        self.createChannel = createChannel
        self.channelOptions = channelOptions
        self.enablePush = enablePush
        self.scheduledAt = scheduledAt
        self.endAt = endAt
        self.ceaseAt = ceaseAt
        self.resumeAt = resumeAt
        self.status = status
        self.createdAt = createdAt
    }

    /// The open rate of `opened` among `sent` (0 when none was sent), as Sendbird gives it: a fraction.
    public static func rate(_ opened: Int, of sent: Int) -> Double { sent == 0 ? 0 : Double(opened) / Double(sent) }
}

/// Who was sent an announcement in which channel, and when they opened it (read past it).
public struct AnnouncementRecipient: Sendable {
    public let userID: String
    public let channelURL: String
    public let sentAt: Int64
    public let openedAt: Int64?

    public init(userID: String, channelURL: String, sentAt: Int64, openedAt: Int64?) {
        (self.userID, self.channelURL, self.sentAt, self.openedAt) = (userID, channelURL, sentAt, openedAt)
    }
}

/// Whether a UTC time of day lies in a daily pause from `cease` to `resume` ("HHMM"; a pause may
/// run over midnight); the minutes until it ends, or nil outside it.
public enum DailyPause {
    public static func minutes(_ text: String) -> Int? {
        guard text.count == 4, let value = Int(text), value >= 0 else { return nil }
        let (hours, minutes) = (value / 100, value % 100)
        return hours < 24 && minutes < 60 ? hours * 60 + minutes : nil
    }

    /// Milliseconds from `now` to the pause's end when `now` lies in it, else nil.
    public static func remaining(cease: String, resume: String, now: Int64) -> Int64? {
        guard let start = minutes(cease), let end = minutes(resume), start != end else { return nil }
        let dayMillis: Int64 = 86_400_000
        let intoDay = Int((now % dayMillis + dayMillis) % dayMillis)
        let minute = intoDay / 60_000
        let inside = start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
        guard inside else { return nil }
        let untilEnd = ((end * 60_000 - intoDay) % Int(dayMillis) + Int(dayMillis)) % Int(dayMillis)
        return Int64(untilEnd)
    }
}
