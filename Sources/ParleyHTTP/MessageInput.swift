import ParleyCore

/// Reads and validates message bodies (API.md §4.2, §4.4).
struct MessageInput {
    let limits: Limits

    func newMessage(_ body: JSONBody, caller: Caller) throws -> NewMessage {
        let typeText = try body.string("message_type") ?? MessageType.user.rawValue
        guard let type = MessageType(rawValue: typeText) else {
            throw ParleyError.invalidValue("message_type", "must be MESG, FILE or ADMM")
        }
        let senderID: String? = type == .admin ? nil : try body.string("user_id").map { try Validation.userID($0) } ?? caller.userID
        if type != .admin && senderID == nil { throw ParleyError.missing("user_id") }
        let maxLength = type == .admin ? limits.adminMessageLength : limits.messageLength
        // A FILE message sent as JSON links a file hosted elsewhere (API.md §5.1); uploads are multipart.
        let file = type == .file ? try externalFile(body) : nil
        // A user or admin message is its text: it must have some (400105 missing, 400111 empty).
        let text = type == .file ? try body.string("message") ?? "" : try body.requiredString("message")
        if type != .file && text.isEmpty { throw ParleyError.invalidValue("message", "must not be empty") }
        return NewMessage(
            type: type,
            senderID: senderID,
            message: try Validation.text(text, field: "message", max: maxLength),
            customType: try Validation.text(try body.string("custom_type") ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(try body.string("data") ?? "", max: limits.dataBytes),
            mentionType: try mentionType(body) ?? .users,
            mentionedUserIDs: try mentionedUserIDs(body) ?? [],
            sortedMetaarray: try metaarray(body),
            dedupID: try body.string("dedup_id").map { try Validation.text($0, field: "dedup_id", max: Validation.maxDedupIDLength) },
            isSilent: try body.bool("is_silent") ?? false,
            file: file
        )
    }

    /// `url` (http or https), `file_name`, `file_type`, `file_size`: stored as given, no thumbnails.
    private func externalFile(_ body: JSONBody) throws -> FileAttachment {
        let url = try Validation.text(try body.requiredString("url"), field: "url", max: Validation.maxFileURLLength)
        // `http://` or `https://` (the scheme in any letter case), then anything.
        let lowered = url.prefix(8).lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw ParleyError.invalidValue("url", "must be an http or https URL")
        }
        let size = try body.int64("file_size") ?? 0
        guard size >= 0 else { throw ParleyError.invalidValue("file_size", "must not be negative") }
        return FileAttachment(
            url: url,
            name: try Validation.fileName(try body.string("file_name") ?? ""),
            type: try body.string("file_type").map { try Validation.mediaType($0, field: "file_type") } ?? "",
            size: size, requireAuth: false
        )
    }

    func update(_ body: JSONBody) throws -> MessageUpdate {
        MessageUpdate(
            message: try body.string("message").map { try Validation.text($0, field: "message", max: limits.messageLength) },
            customType: try body.string("custom_type").map { try Validation.text($0, field: "custom_type", max: Validation.maxCustomTypeLength) },
            data: try body.string("data").map { try Validation.data($0, max: limits.dataBytes) },
            mentionType: try mentionType(body),
            mentionedUserIDs: try mentionedUserIDs(body)
        )
    }

    private func mentionType(_ body: JSONBody) throws -> MentionType? {
        try body.string("mention_type").map { text in
            guard let type = MentionType(rawValue: text) else { throw ParleyError.invalidValue("mention_type", "must be users or channel") }
            return type
        }
    }

    private func mentionedUserIDs(_ body: JSONBody) throws -> [String]? {
        try body.stringList("mentioned_user_ids").map { try Validation.userIDs($0, field: "mentioned_user_ids") }
    }

    /// `[{ key, value: [strings] }]`: at most 20 keys of at most 50 values.
    func metaarray(_ body: JSONBody) throws -> [MetaArray] {
        let entries = try body.objectList("sorted_metaarray") ?? []
        guard entries.count <= Validation.maxMetaArrayKeys else {
            throw ParleyError.tooMany("sorted_metaarray may hold at most \(Validation.maxMetaArrayKeys) keys.")
        }
        return try entries.map { entry in
            let key = try entry.requiredString("key")
            try Validation.metadataKey(key, field: "sorted_metaarray[].key")
            guard let values = try entry.stringList("value") else { throw ParleyError.missing("sorted_metaarray[].value") }
            guard values.count <= Validation.maxMetaArrayValues else {
                throw ParleyError.tooMany("A meta array key may hold at most \(Validation.maxMetaArrayValues) values.")
            }
            return MetaArray(key: key, value: values)
        }
    }
}
