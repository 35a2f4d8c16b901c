import Foundation

/// A user message to send (API.md §4.2).
public struct UserMessageParams: Encodable, Sendable {
    public var message: String
    public var customType: String?
    public var data: String?
    /// `users` (the default) or `channel`.
    public var mentionType: String?
    public var mentionedUserIds: [String]?
    public var sortedMetaarray: [MetaArray]?
    /// Languages to translate into on send (API.md §9).
    public var targetLangs: [String]?
    /// A reply in the thread of this message (API.md §13.1).
    public var parentMessageId: Int64?
    public var isReplyToChannel: Bool?
    public var isSilent: Bool?
    public var pollId: Int64?
    /// Makes a retried send safe: the server answers a repeat with the first send's message. Each
    /// params value gets a fresh one, so sending the same value again after a failure (a dropped
    /// connection, a timeout) never makes a second message.
    public var dedupId: String? = UUID().uuidString
    let messageType = "MESG"

    public init(message: String, customType: String? = nil, data: String? = nil, mentionedUserIds: [String]? = nil) {
        self.message = message
        self.customType = customType
        self.data = data
        self.mentionedUserIds = mentionedUserIds
    }
}

/// A file to send as a file message: uploaded, encrypted at rest, with thumbnails for images.
public struct FileMessageParams: Sendable {
    public var file: Data
    public var fileName: String
    public var mimeType: String?
    /// Boxes to make thumbnails in (images and videos), at most three.
    public var thumbnailSizes: [(width: Int, height: Int)] = []
    public var customType: String?
    public var data: String?
    public var parentMessageId: Int64?
    /// As `UserMessageParams.dedupId`: sending the same value again never makes a second message
    /// (the second upload is discarded by the server).
    public var dedupId: String? = UUID().uuidString

    public init(file: Data, fileName: String, mimeType: String? = nil) {
        self.file = file
        self.fileName = fileName
        self.mimeType = mimeType
    }

    var fields: [(String, String)] {
        var fields = [("message_type", "FILE"), ("file_name", fileName)]
        if let mimeType { fields.append(("file_type", mimeType)) }
        for (index, size) in thumbnailSizes.prefix(3).enumerated() {
            fields.append(("thumbnail\(index + 1)", "\(size.width)x\(size.height)"))
        }
        if let customType { fields.append(("custom_type", customType)) }
        if let data { fields.append(("data", data)) }
        if let parentMessageId { fields.append(("parent_message_id", String(parentMessageId))) }
        if let dedupId { fields.append(("dedup_id", dedupId)) }
        return fields
    }
}

/// A message's change: the fields given change, the rest stay.
public struct MessageUpdateParams: Encodable, Sendable {
    public var message: String?
    public var customType: String?
    public var data: String?
    public var mentionedUserIds: [String]?

    public init(message: String? = nil, customType: String? = nil, data: String? = nil) {
        self.message = message
        self.customType = customType
        self.data = data
    }
}

/// Which messages to load around a point: by time (`ts`, ms) or by message id, with the seeds'
/// previous and next counts.
public struct MessageListParams: Sendable {
    public enum Point: Sendable {
        case timestamp(Int64)
        case messageId(Int64)
    }

    public var point: Point
    public var previousLimit: Int
    public var nextLimit: Int
    /// Whether the message at the point itself is included.
    public var inclusive = true
    /// Newest first, instead of oldest first.
    public var reverse = false
    public var customTypes: [String]?
    public var senderIds: [String]?
    /// `none` (default: no thread-only replies), `all`, `only_reply_to_channel`.
    public var replyType: String?
    /// `MESG`, `FILE` or `ADMM` only.
    public var messageType: String?
    /// Replies carry their parent's summary (`Message.parentMessageInfo`).
    public var includeParentMessageInfo = false

    public init(point: Point, previousLimit: Int = 20, nextLimit: Int = 0) {
        self.point = point
        self.previousLimit = previousLimit
        self.nextLimit = nextLimit
    }

    var items: [URLQueryItem] {
        var query: [URLQueryItem] =
            switch point {
            case .timestamp(let ts): [URLQueryItem(name: "message_ts", value: String(ts))]
            case .messageId(let id): [URLQueryItem(name: "message_id", value: String(id))]
            }
        query += [
            URLQueryItem(name: "prev_limit", value: String(previousLimit)), URLQueryItem(name: "next_limit", value: String(nextLimit)),
            URLQueryItem(name: "include", value: String(inclusive)), URLQueryItem(name: "reverse", value: String(reverse))
        ]
        if let customTypes { query.append(URLQueryItem(name: "custom_types", value: customTypes.joined(separator: ","))) }
        if let senderIds { query.append(URLQueryItem(name: "sender_ids", value: senderIds.joined(separator: ","))) }
        if let replyType { query.append(URLQueryItem(name: "include_reply_type", value: replyType)) }
        if let messageType { query.append(URLQueryItem(name: "message_type", value: messageType)) }
        if includeParentMessageInfo { query.append(URLQueryItem(name: "include_parent_message_info", value: "true")) }
        return query
    }
}
