import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions

/// Reads the text fields of a file upload (API.md §5.1) into the message to send.
struct FileMessageInput {
    let limits: Limits

    func parse(_ form: MultipartForm, caller: Caller) throws -> FileMessageForm {
        let fields = form.fields
        if let type = fields["message_type"], type != MessageType.file.rawValue {
            throw ParleyError.invalidValue("message_type", "an upload is a FILE message")
        }
        guard let senderID = try fields["user_id"].map({ try Validation.userID($0) }) ?? caller.userID else {
            throw ParleyError.missing("user_id")
        }
        var message = NewMessage(
            type: .file,
            senderID: senderID,
            message: "",
            customType: try Validation.text(fields["custom_type"] ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(fields["data"] ?? "", max: limits.dataBytes),
            dedupID: try fields["dedup_id"].flatMap {
                $0.isEmpty ? nil : try Validation.text($0, field: "dedup_id", max: Validation.maxDedupIDLength)
            },
            isSilent: try bool(fields, "is_silent") ?? false
        )
        message.sendsPush = try bool(fields, "send_push") ?? true
        let parentID = try fields["parent_message_id"].map { text in
            guard let id = Int64(text) else { throw ParleyError.invalidValue("parent_message_id", "must be a message id") }
            return id
        }
        try MessageFieldRules.reply(to: parentID, toChannel: try bool(fields, "is_reply_to_channel"), &message)
        let boxes = try boxes(fields)
        let fileName = try fields["file_name"].map { try Validation.fileName($0) }
        let fileType = try fields["file_type"].map { try Validation.mediaType($0, field: "file_type") }
        let requireAuth = try bool(fields, "require_auth") ?? true
        // The part's own Content-Type stands in for `file_type`, unless generic or malformed.
        let declaredType = form.fileContentType.flatMap {
            $0.lowercased() == "application/octet-stream" || !Validation.isMediaType($0) ? nil : $0
        }
        return FileMessageForm(
            message: message, thumbnailBoxes: boxes,
            fileName: try fileName ?? form.fileName.map { try Validation.fileName($0, field: "file") } ?? "file",
            fileType: fileType ?? declaredType, requireAuth: requireAuth
        )
    }

    /// `thumbnail1`…`thumbnail3`, each `WIDTHxHEIGHT`; a fourth is 400111.
    private func boxes(_ fields: [String: String]) throws -> [ThumbnailBox] {
        let named = fields.keys.filter { $0.hasPrefix("thumbnail") && Int($0.dropFirst("thumbnail".count)) != nil }
        if let extra = named.first(where: { !(1...Validation.maxThumbnails).contains(Int($0.dropFirst("thumbnail".count))!) }) {
            throw ParleyError.invalidValue(extra, "at most \(Validation.maxThumbnails) thumbnails (thumbnail1…thumbnail3)")
        }
        return try (1...Validation.maxThumbnails).compactMap { index in
            guard let text = fields["thumbnail\(index)"] else { return nil }
            // Decimal digits only: no sign, no spaces (`Int` alone would take `+5`).
            let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, sides.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
                let width = Int(sides[0]), let height = Int(sides[1]),
                (1...limits.thumbnailMaxSide).contains(width), (1...limits.thumbnailMaxSide).contains(height)
            else { throw ParleyError.invalidValue("thumbnail\(index)", "must be WIDTHxHEIGHT, each 1…\(limits.thumbnailMaxSide)") }
            return ThumbnailBox(width: width, height: height)
        }
    }

    private func bool(_ fields: [String: String], _ name: String) throws -> Bool? {
        guard let text = fields[name] else { return nil }
        guard let flag = BooleanText.parse(text) else { throw ParleyError.wrongType(name, expected: .boolean) }
        return flag
    }
}
