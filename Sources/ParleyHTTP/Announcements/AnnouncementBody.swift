import ParleyCompliance
import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/announcements` and `PUT /v3/announcements/{unique_id}`: Sendbird's fields, the
/// message and the channel options nested (`message.content`) or, as Sendbird's generated SDKs
/// send them, flattened under dotted keys.
struct AnnouncementBody: Decodable {
    var message: MessagePart?
    @Checked var messageType: String?
    @Checked var userID: String?
    @Checked var content: String?
    @Checked var dottedType: String?
    @Checked var dottedUserID: String?
    @Checked var dottedContent: String?
    @Checked var dottedCustomType: String?
    @Checked var dottedData: String?
    @Checked var targetAt: String?
    @Checked var targetList: [String]?
    @Checked var targetChannelType: String?
    @Checked var uniqueID: String?
    @Checked var group: String?
    @Checked var createChannel: Bool?
    var channelOptions: OptionsPart?
    @Checked var dottedName: String?
    @Checked var dottedCoverURL: String?
    @Checked var dottedChannelCustomType: String?
    @Checked var dottedChannelData: String?
    @Checked var dottedDistinct: Bool?
    @Checked var scheduledAt: Int64?
    @Checked var endAt: Int64?
    @Checked var ceaseAt: String?
    @Checked var resumeAt: String?
    @Checked var enablePush: Bool?
    @Checked var action: String?

    struct MessagePart: Decodable {
        @Checked var type: String?
        @Checked var userID: String?
        @Checked var content: String?
        @Checked var customType: String?
        @Checked var data: String?

        enum CodingKeys: String, CodingKey {
            case type, content, data
            case userID = "user_id"
            case customType = "custom_type"
        }
    }

    struct OptionsPart: Decodable {
        @Checked var name: String?
        @Checked var coverURL: String?
        @Checked var customType: String?
        @Checked var data: String?
        @Checked var distinct: Bool?

        enum CodingKeys: String, CodingKey {
            case name, data, distinct
            case coverURL = "cover_url"
            case customType = "custom_type"
        }
    }

    enum CodingKeys: String, CodingKey {
        case message, content, action
        case messageType = "message_type"
        case userID = "user_id"
        case dottedType = "message.type"
        case dottedUserID = "message.user_id"
        case dottedContent = "message.content"
        case dottedCustomType = "message.custom_type"
        case dottedData = "message.data"
        case targetAt = "target_at"
        case targetList = "target_list"
        case targetChannelType = "target_channel_type"
        case uniqueID = "unique_id"
        case group = "announcement_group"
        case createChannel = "create_channel"
        case channelOptions = "create_channel_options"
        case dottedName = "create_channel_options.name"
        case dottedCoverURL = "create_channel_options.cover_url"
        case dottedChannelCustomType = "create_channel_options.custom_type"
        case dottedChannelData = "create_channel_options.data"
        case dottedDistinct = "create_channel_options.distinct"
        case scheduledAt = "scheduled_at"
        case endAt = "end_at"
        case ceaseAt = "cease_at"
        case resumeAt = "resume_at"
        case enablePush = "enable_push"
    }

    /// Every content given, in whichever form, must have text: a form that loses to another is
    /// still checked (its being empty is a mistake, not a choice).
    private func requireContentNotEmpty() throws {
        for content in [message?.content, dottedContent, content] where content == "" {
            throw ParleyError.invalidValue("message.content", "must not be empty")
        }
    }

    private var type: String? { message?.type ?? dottedType ?? messageType }
    private var sender: String? { message?.userID ?? dottedUserID ?? userID }
    private var text: String? { message?.content ?? dottedContent ?? content }
    private var customType: String? { message?.customType ?? dottedCustomType }
    private var data: String? { message?.data ?? dottedData }

    /// A new announcement, each field checked.
    func announcement(limits: Limits) throws -> Announcement {
        try requireContentNotEmpty()
        guard let sender else { throw ParleyError.missing("message.user_id") }
        guard let text else { throw ParleyError.missing("message.content") }
        guard let targetText = targetAt else { throw ParleyError.missing("target_at") }
        guard let target = Announcement.Target(rawValue: targetText) else {
            throw ParleyError.invalidValue(
                "target_at", "must be one of \(Announcement.Target.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let messageType = try Self.messageType(type ?? MessageType.user.rawValue)
        let list = try (targetList ?? []).map {
            target.isUsers ? try Validation.userID($0, field: "target_list") : try Validation.channelURL($0, field: "target_list")
        }.orderedUnique()
        return Announcement(
            uniqueID: try uniqueID.map { try Validation.channelURL($0, field: "unique_id") } ?? "",
            group: try Validation.text(group ?? "", field: "announcement_group", max: 128),
            messageType: messageType, senderID: try Validation.userID(sender, field: "message.user_id"),
            content: try Self.content(text, messageType, limits), customType: try Self.customType(customType ?? ""),
            data: try Validation.data(data ?? "", field: "message.data", max: limits.dataBytes), target: target, targetList: list,
            channelType: try Self.channelType(targetChannelType ?? "all"), createChannel: createChannel ?? false,
            channelOptions: try options(Announcement.ChannelOptions()), enablePush: enablePush ?? true, scheduledAt: scheduledAt ?? 0,
            endAt: endAt ?? 0, ceaseAt: ceaseAt.flatMap { $0.isEmpty ? nil : $0 }, resumeAt: resumeAt.flatMap { $0.isEmpty ? nil : $0 },
            status: .scheduled, createdAt: 0)
    }

    /// An update: an `action`, or new values (the targets stay as scheduled).
    func change(limits: Limits) throws -> AnnouncementChange {
        try requireContentNotEmpty()
        var change = AnnouncementChange()
        if let action {
            guard let parsed = AnnouncementChange.Action(rawValue: action) else {
                throw ParleyError.invalidValue("action", "must be pause, resume or cancel")
            }
            change.action = parsed
            return change
        }
        change.group = try group.map { try Validation.text($0, field: "announcement_group", max: 128) }
        change.senderID = try sender.map { try Validation.userID($0, field: "message.user_id") }
        change.content = try text.map { try Self.content($0, try Self.messageType(type ?? "MESG"), limits) }
        change.customType = try customType.map(Self.customType)
        change.data = try data.map { try Validation.data($0, field: "message.data", max: limits.dataBytes) }
        change.createChannel = createChannel
        change.enablePush = enablePush
        change.scheduledAt = scheduledAt
        change.endAt = endAt
        change.ceaseAt = ceaseAt
        change.resumeAt = resumeAt
        let hasOptions =
            channelOptions != nil || [dottedName, dottedCoverURL, dottedChannelCustomType, dottedChannelData].contains { $0 != nil }
        if hasOptions || dottedDistinct != nil { change.channelOptions = try options(Announcement.ChannelOptions()) }
        return change
    }

    private func options(_ base: Announcement.ChannelOptions) throws -> Announcement.ChannelOptions {
        var options = base
        if let name = channelOptions?.name ?? dottedName {
            options.name = try Validation.text(name, field: "create_channel_options.name", max: Validation.maxChannelNameLength)
        }
        if let cover = channelOptions?.coverURL ?? dottedCoverURL {
            options.coverURL = try Validation.text(cover, field: "create_channel_options.cover_url", max: Validation.maxProfileURLLength)
        }
        if let customType = channelOptions?.customType ?? dottedChannelCustomType { options.customType = try Self.customType(customType) }
        if let data = channelOptions?.data ?? dottedChannelData {
            options.data = try Validation.data(data, field: "create_channel_options.data", max: 65_535)
        }
        if let distinct = channelOptions?.distinct ?? dottedDistinct { options.distinct = distinct }
        return options
    }

    private static func messageType(_ text: String) throws -> MessageType {
        guard let type = MessageType(rawValue: text), type != .file else {
            throw ParleyError.invalidValue("message.type", "must be MESG or ADMM")
        }
        return type
    }

    private static func content(_ text: String, _ type: MessageType, _ limits: Limits) throws -> String {
        guard !text.isEmpty else { throw ParleyError.invalidValue("message.content", "must not be empty") }
        return try Validation.text(
            text, field: "message.content", max: type == .admin ? limits.adminMessageLength : limits.messageLength)
    }

    private static func customType(_ text: String) throws -> String {
        try Validation.text(text, field: "message.custom_type", max: Validation.maxCustomTypeLength)
    }

    private static func channelType(_ text: String) throws -> Announcement.ChannelType {
        guard let type = Announcement.ChannelType(rawValue: text) else {
            throw ParleyError.invalidValue("target_channel_type", "must be all, distinct or non-distinct")
        }
        return type
    }
}
