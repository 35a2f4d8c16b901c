import ByteCoding
import ParleyCore

/// A poll (API.md §13.4) with Sendbird's field names: `id` (also as `poll_id`), `status`
/// (`open` | `closed`), `close_at` (-1: none), its options with their `vote_count`s.
public struct PollDTO: JSONWritable {
    let poll: Poll
    /// The options the reader voted for, when known.
    let votedOptionIDs: [Int64]?

    public init(poll: Poll, votedOptionIDs: [Int64]? = nil) {
        self.poll = poll
        self.votedOptionIDs = votedOptionIDs
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", poll.pollID)
            json.field("poll_id", poll.pollID)
            json.field("title", poll.title)
            json.field("data", poll.data)
            json.field("status", poll.isClosed(at: Clock.system.nowMillis) ? "closed" : "open")
            json.field("allow_user_suggestion", poll.allowUserSuggestion)
            json.field("allow_multiple_votes", poll.allowMultipleVotes)
            json.field("close_at", poll.closeAt ?? -1)
            json.key("created_by")
            if let creator = poll.createdBy { json.string(creator) } else { json.null() }
            json.key("channel_url")
            if let url = poll.channelURL { json.string(url) } else { json.null() }
            json.key("channel_type")
            if let kind = poll.channelKind { json.string(kind.rawValue) } else { json.null() }
            json.field("message_id", poll.messageID ?? 0)
            json.field("voter_count", poll.voterCount)
            json.key("options")
            json.array { json in
                for option in poll.options {
                    json.object { json in
                        json.field("id", option.optionID)
                        json.field("poll_id", option.pollID)
                        json.field("text", option.text)
                        json.field("vote_count", option.voteCount)
                        json.key("created_by")
                        if let creator = option.createdBy { json.string(creator) } else { json.null() }
                        json.field("created_at", option.createdAt)
                        json.field("updated_at", option.updatedAt)
                    }
                }
            }
            if let votedOptionIDs {
                json.key("voted_option_ids")
                json.array { json in votedOptionIDs.forEach { json.int($0) } }
            }
            json.field("created_at", poll.createdAt)
            json.field("updated_at", poll.updatedAt)
        }
    }
}
