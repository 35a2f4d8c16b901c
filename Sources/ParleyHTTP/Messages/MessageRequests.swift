import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `POST …/messages` as JSON (API.md §4.2): a user, admin or FILE message. A FILE message sent
/// as JSON links a file hosted elsewhere (API.md §5.1: `url`, `file_name`, `file_type`,
/// `file_size`); uploads are multipart (`FileMessageInput`).
struct NewMessageBody: Decodable {
    @Checked var messageType: String?
    @Checked var userID: String?
    @Checked var url: String?
    @Checked var fileSize: Int64?
    @Checked var fileName: String?
    @Checked var fileType: String?
    @Checked var message: String?
    @Checked var customType: String?
    @Checked var data: String?
    @Checked var mentionType: String?
    @Checked var mentionedUserIDs: [String]?
    var sortedMetaarray: [MetaArrayBody]?
    @Checked var dedupID: String?
    var isSilent: Bool?
    @Checked var sendPush: Bool?
    @Checked var targetLangs: [String]?
    @Checked var parentMessageID: Int64?
    @Checked var isReplyToChannel: Bool?
    @Checked var pollID: Int64?

    enum CodingKeys: String, CodingKey {
        case messageType = "message_type"
        case userID = "user_id"
        case url
        case fileSize = "file_size"
        case fileName = "file_name"
        case fileType = "file_type"
        case message
        case customType = "custom_type"
        case data
        case mentionType = "mention_type"
        case mentionedUserIDs = "mentioned_user_ids"
        case sortedMetaarray = "sorted_metaarray"
        case dedupID = "dedup_id"
        case isSilent = "is_silent"
        case sendPush = "send_push"
        case targetLangs = "target_langs"
        case parentMessageID = "parent_message_id"
        case isReplyToChannel = "is_reply_to_channel"
        case pollID = "poll_id"
    }

    /// The message to send; a session caller sends as themself unless the body names the sender.
    func validated(caller: Caller, limits: Limits) throws -> NewMessage {
        guard let type = MessageType(rawValue: messageType ?? MessageType.user.rawValue) else {
            throw ParleyError.invalidValue("message_type", "must be MESG, FILE or ADMM")
        }
        // A negative size is refused whatever the type (a user message ignores the file fields).
        if let fileSize, fileSize < 0 { throw ParleyError.invalidValue("file_size", "must not be negative") }
        let senderID: String? = type == .admin ? nil : try userID.map { try Validation.userID($0) } ?? caller.userID
        if type != .admin && senderID == nil { throw ParleyError.missing("user_id") }
        let maxLength = type == .admin ? limits.adminMessageLength : limits.messageLength
        let file = type == .file ? try externalFile() : nil
        // A user or admin message is its text: it must have some (400105 missing, 400111 empty).
        guard let text = message ?? (type == .file ? "" : nil) else { throw ParleyError.missing("message") }
        if type != .file && text.isEmpty { throw ParleyError.invalidValue("message", "must not be empty") }
        var new = NewMessage(
            type: type,
            senderID: senderID,
            message: try Validation.text(text, field: "message", max: maxLength),
            customType: try Validation.text(customType ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(data ?? "", max: limits.dataBytes),
            mentionType: try MessageFieldRules.mentionType(mentionType) ?? .users,
            mentionedUserIDs: try MessageFieldRules.mentionedUserIDs(mentionedUserIDs) ?? [],
            sortedMetaarray: try MessageFieldRules.metaarray(sortedMetaarray),
            dedupID: try MessageFieldRules.dedupID(dedupID),
            isSilent: isSilent ?? false,
            file: file
        )
        new.targetLanguages = try MessageFieldRules.targetLanguages(targetLangs) ?? []
        new.sendsPush = sendPush ?? true
        try MessageFieldRules.reply(to: parentMessageID, toChannel: isReplyToChannel, &new)
        if let pollID, pollID != 0 {
            guard pollID > 0, type == .user else { throw ParleyError.invalidValue("poll_id", "a user message (MESG) carries a poll") }
            new.pollID = pollID
        }
        return new
    }

    /// `url` (http or https), `file_name`, `file_type`, `file_size`: stored as given, no thumbnails.
    private func externalFile() throws -> FileAttachment {
        guard let url else { throw ParleyError.missing("url") }
        let link = try Validation.text(url, field: "url", max: Validation.maxFileURLLength)
        // `http://` or `https://` (the scheme in any letter case), then anything. Compared as
        // bytes: as characters, a combining mark after the `//` would make the last slash
        // another character.
        let head = link.utf8.prefix(8).map { (65...90).contains($0) ? $0 + 32 : $0 }
        guard head.starts(with: "http://".utf8) || head.starts(with: "https://".utf8) else {
            throw ParleyError.invalidValue("url", "must be an http or https URL")
        }
        let size = fileSize ?? 0
        return FileAttachment(
            url: link,
            name: try Validation.fileName(fileName ?? ""),
            type: try fileType.map { try Validation.mediaType($0, field: "file_type") } ?? "",
            size: size, requireAuth: false
        )
    }
}

/// `PUT …/messages/{message_id}` (API.md §4.4): absent fields stay as they are.
struct MessageUpdateBody: Decodable {
    @Checked var message: String?
    @Checked var customType: String?
    @Checked var data: String?
    @Checked var mentionType: String?
    @Checked var mentionedUserIDs: [String]?

    enum CodingKeys: String, CodingKey {
        case message
        case customType = "custom_type"
        case data
        case mentionType = "mention_type"
        case mentionedUserIDs = "mentioned_user_ids"
    }

    func validated(limits: Limits) throws -> MessageUpdate {
        MessageUpdate(
            message: try message.map { try Validation.text($0, field: "message", max: limits.messageLength) },
            customType: try customType.map { try Validation.text($0, field: "custom_type", max: Validation.maxCustomTypeLength) },
            data: try data.map { try Validation.data($0, max: limits.dataBytes) },
            mentionType: try MessageFieldRules.mentionType(mentionType),
            mentionedUserIDs: try MessageFieldRules.mentionedUserIDs(mentionedUserIDs)
        )
    }
}

/// An item of `sorted_metaarray`: `{ "key": "…", "value": ["…"] }`.
struct MetaArrayBody: Decodable {
    @Checked var key: String
    @Checked var value: [String]
}

/// The rules for the fields that messages, their updates and their meta arrays share.
enum MessageFieldRules {
    static func mentionType(_ text: String?) throws -> MentionType? {
        try text.map { text in
            guard let type = MentionType(rawValue: text) else { throw ParleyError.invalidValue("mention_type", "must be users or channel") }
            return type
        }
    }

    /// `parent_message_id` (0 or absent: no reply) and `is_reply_to_channel` (API.md §13.1).
    static func reply(to parentID: Int64?, toChannel: Bool?, _ new: inout NewMessage) throws {
        guard let parentID, parentID != 0 else { return }
        guard parentID > 0 else { throw ParleyError.invalidValue("parent_message_id", "must be a message id") }
        (new.parentMessageID, new.isReplyToChannel) = (parentID, toChannel ?? false)
    }

    /// An empty dedup_id is no dedup_id (responses show "" for a message sent without one).
    static func dedupID(_ text: String?) throws -> String? {
        try text.flatMap { $0.isEmpty ? nil : try Validation.text($0, field: "dedup_id", max: Validation.maxDedupIDLength) }
    }

    static func mentionedUserIDs(_ ids: [String]?) throws -> [String]? {
        try ids.map { try Validation.userIDs($0, field: "mentioned_user_ids") }
    }

    /// `target_langs` (API.md §9): a short list of codes; which codes the provider knows is
    /// checked where the translation is made.
    static func targetLanguages(_ codes: [String]?) throws -> [String]? {
        try codes.map { codes in
            guard codes.count <= 5, codes.allSatisfy({ !$0.isEmpty && $0.count <= 16 }) else {
                throw ParleyError.invalidValue("target_langs", "at most 5 language codes such as \"es\" or \"zh-CN\"")
            }
            return codes
        }
    }

    /// At most 20 keys of at most 50 values; no entries when absent. A key given twice (in any
    /// spelling) is one entry, its values merged in order: a meta array is a list, and would
    /// otherwise hold the key twice.
    static func metaarray(_ entries: [MetaArrayBody]?) throws -> [MetaArray] {
        var merged: [MetaArray] = []
        for entry in entries ?? [] {
            try Validation.metadataKey(entry.key, field: "sorted_metaarray[].key")
            let key = entry.key.nfc
            if let index = merged.firstIndex(where: { $0.key == key }) {
                merged[index].value += entry.value.filter { !merged[index].value.contains($0) }
            } else {
                merged.append(MetaArray(key: key, value: entry.value))
            }
        }
        guard merged.count <= Validation.maxMetaArrayKeys else {
            throw ParleyError.tooMany("sorted_metaarray may hold at most \(Validation.maxMetaArrayKeys) keys.")
        }
        guard merged.allSatisfy({ $0.value.count <= Validation.maxMetaArrayValues }) else {
            throw ParleyError.tooMany("A meta array key may hold at most \(Validation.maxMetaArrayValues) values.")
        }
        return merged
    }
}

/// `POST …/messages/{message_id}/translation` (API.md §9.1).
struct TranslationRequestBody: Decodable {
    @Checked var targetLangs: [String]

    enum CodingKeys: String, CodingKey {
        case targetLangs = "target_langs"
    }
}
