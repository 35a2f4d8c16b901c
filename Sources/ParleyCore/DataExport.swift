/// What a data export (API.md §14.2, Sendbird's `/v3/export/{data_type}`) reads.
public enum ExportKind: String, Sendable, Codable, CaseIterable {
    case messages, channels, users

    /// The fields of a record, in CSV column order (and the JSON objects' names).
    public var columns: [String] {
        switch self {
        case .messages:
            [
                "message_id", "channel_url", "channel_type", "type", "user_id", "message", "data", "custom_type", "created_at",
                "updated_at", "parent_message_id", "file_name", "file_type", "file_size", "mentioned_user_ids"
            ]
        case .channels:
            [
                "channel_url", "channel_type", "name", "custom_type", "data", "member_count", "is_distinct", "is_public", "is_super",
                "freeze", "created_at"
            ]
        case .users: ["user_id", "nickname", "profile_url", "is_active", "created_at", "last_seen_at", "metadata"]
        }
    }
}

/// A data export as registered: its kind, the time span (`created_at` in [start, end)), the
/// filters, and the file's format.
public struct ExportRequest: Sendable, Codable, Equatable {
    public enum Format: String, Sendable, Codable, CaseIterable {
        case json, csv
    }

    public let kind: ExportKind
    public let startTS: Int64
    public let endTS: Int64
    public let format: Format
    public let csvDelimiter: String
    public let channelURLs: [String]
    public let excludeChannelURLs: [String]
    public let senderIDs: [String]
    public let excludeSenderIDs: [String]
    public let userIDs: [String]

    public init(
        kind: ExportKind, startTS: Int64, endTS: Int64, format: Format, csvDelimiter: String, channelURLs: [String],
        excludeChannelURLs: [String], senderIDs: [String], excludeSenderIDs: [String], userIDs: [String]
    ) throws {
        guard startTS < endTS else { throw ParleyError.invalidValue("end_ts", "must be after start_ts") }
        guard csvDelimiter.count == 1, csvDelimiter != "\"", csvDelimiter != "\n", csvDelimiter != "\r" else {
            throw ParleyError.invalidValue("csv_delimiter", "one character, not a quote or a line break")
        }
        for (field, list) in [
            ("channel_urls", channelURLs), ("exclude_channel_urls", excludeChannelURLs), ("sender_ids", senderIDs),
            ("exclude_sender_ids", excludeSenderIDs), ("user_ids", userIDs)
        ] where list.count > 1_000 {
            throw ParleyError.invalidValue(field, "at most 1,000 entries")
        }
        (self.kind, self.startTS, self.endTS, self.format, self.csvDelimiter) = (kind, startTS, endTS, format, csvDelimiter)
        (self.channelURLs, self.excludeChannelURLs, self.senderIDs, self.excludeSenderIDs) = (
            channelURLs, excludeChannelURLs, senderIDs, excludeSenderIDs
        )
        self.userIDs = userIDs
    }

    /// The job kind of one data type's exports (`export_messages`, …).
    public static func jobKind(_ kind: ExportKind) -> String { "export_\(kind.rawValue)" }
}

/// Where an export's next page starts: after the record at (`time`, `id`).
public struct ExportCursor: Sendable, Codable, Equatable {
    public var time: Int64
    public var id: String

    public init(time: Int64, id: String) {
        self.time = time
        self.id = id
    }

    public static let start = ExportCursor(time: Int64.min, id: "")
}
