import ParleyCore
import ParleyHTTPConventions

/// The query parameters of a history window (API.md §4.3, §13.1), shared by a channel's history
/// and a thread's.
enum HistoryParameters {
    static func read(_ query: QueryParameters, now: Int64) throws -> HistoryQuery {
        var history = HistoryQuery(anchorTimestamp: try query.int64("message_ts") ?? now)
        if let id = try query.int64("message_id"), id > 0 { history.anchorMessageID = id }
        history.prevLimit = try query.int("prev_limit", default: 15, range: 0...200)
        history.nextLimit = try query.int("next_limit", default: 15, range: 0...200)
        history.include = try query.bool("include", default: true)
        history.reverse = try query.bool("reverse", default: false)
        history.messageType = try query.string("message_type").map { text in
            guard let type = MessageType(rawValue: text) else {
                throw ParleyError.invalidValue("message_type", "must be MESG, FILE or ADMM")
            }
            return type
        }
        history.customTypes = query.list("custom_types")
        history.senderIDs = query.list("sender_ids")
        history.includeRemoved = try query.bool("include_removed", default: false)
        history.includeParentMessageInfo = try query.bool("include_parent_message_info", default: false)
        // Always shown on a parent: it is part of the message's row, and costs nothing to show.
        _ = try query.bool("include_thread_info", default: false)
        return history
    }

    /// `include_reply_type`: `NONE` (the default), `ALL` or `ONLY_REPLY_TO_CHANNEL`, in any case.
    static func replyFilter(_ query: QueryParameters) throws -> ReplyFilter {
        switch query.string("include_reply_type")?.uppercased() {
        case nil, "NONE": return .none
        case "ALL": return .all
        case "ONLY_REPLY_TO_CHANNEL": return .onlyReplyToChannel
        default: throw ParleyError.invalidValue("include_reply_type", "must be NONE, ALL or ONLY_REPLY_TO_CHANNEL")
        }
    }
}
