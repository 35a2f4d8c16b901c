import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/polls` (API.md §13.4).
struct NewPollBody: Decodable {
    @Checked var title: String?
    @Checked var options: [String]?
    @Checked var data: String?
    @Checked var allowUserSuggestion: Bool?
    @Checked var allowMultipleVotes: Bool?
    @Checked var closeAt: Int64?
    @Checked var createdBy: String?
    @Checked var channelURL: String?
    @Checked var channelType: String?

    enum CodingKeys: String, CodingKey {
        case title, options, data
        case allowUserSuggestion = "allow_user_suggestion"
        case allowMultipleVotes = "allow_multiple_votes"
        case closeAt = "close_at"
        case createdBy = "created_by"
        case channelURL = "channel_url"
        case channelType = "channel_type"
    }

    /// A session user makes polls as themself.
    func validated(caller: Caller, limits: Limits, now: Int64) throws -> NewPoll {
        guard let title else { throw ParleyError.missing("title") }
        guard let options else { throw ParleyError.missing("options") }
        guard (1...limits.pollOptions).contains(options.count) else {
            throw ParleyError.invalidValue("options", "a poll has 1 to \(limits.pollOptions) options")
        }
        var poll = NewPoll(title: try PollFieldRules.title(title), options: try options.map(PollFieldRules.optionText))
        poll.data = try Validation.data(data ?? "", max: limits.dataBytes)
        poll.allowUserSuggestion = allowUserSuggestion ?? false
        poll.allowMultipleVotes = allowMultipleVotes ?? false
        poll.closeAt = try PollFieldRules.closeAt(closeAt, now: now) ?? nil
        poll.createdBy = try createdBy.map { try Validation.userID($0) } ?? caller.userID
        // `channel_type` alone says nothing (a null `channel_url` is none), but must be a kind.
        let kind = try PollFieldRules.channelKind(channelType)
        if let channelURL { poll.channel = (channelURL, kind) }
        return poll
    }
}

/// `PUT /v3/polls/{poll_id}`: absent fields stay; `close_at: -1` removes the closing time.
struct PollUpdateBody: Decodable {
    @Checked var title: String?
    @Checked var data: String?
    @Checked var allowUserSuggestion: Bool?
    @Checked var allowMultipleVotes: Bool?
    @Checked var closeAt: Int64?

    enum CodingKeys: String, CodingKey {
        case title, data
        case allowUserSuggestion = "allow_user_suggestion"
        case allowMultipleVotes = "allow_multiple_votes"
        case closeAt = "close_at"
    }

    func validated(limits: Limits, now: Int64) throws -> PollUpdate {
        var change = PollUpdate()
        change.title = try title.map(PollFieldRules.title)
        change.data = try data.map { try Validation.data($0, max: limits.dataBytes) }
        change.allowUserSuggestion = allowUserSuggestion
        change.allowMultipleVotes = allowMultipleVotes
        change.closeAt = try PollFieldRules.closeAt(closeAt, now: now)
        return change
    }
}

/// `PUT /v3/polls/{poll_id}/vote`: `{ user_id, option_ids }`.
struct PollVoteBody: Decodable {
    @Checked var userID: String?
    @Checked var optionIDs: [Int64]?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case optionIDs = "option_ids"
    }
}

/// `POST …/options` and `PUT …/options/{option_id}`: `{ text, created_by }`.
struct PollOptionBody: Decodable {
    @Checked var text: String?
    @Checked var createdBy: String?

    enum CodingKeys: String, CodingKey {
        case text
        case createdBy = "created_by"
    }
}

enum PollFieldRules {
    static func title(_ text: String) throws -> String {
        guard !text.isEmpty else { throw ParleyError.invalidValue("title", "must not be empty") }
        return try Validation.text(text, field: "title", max: Validation.maxPollTitleLength)
    }

    static func optionText(_ text: String) throws -> String {
        guard !text.isEmpty else { throw ParleyError.invalidValue("options", "an option's text must not be empty") }
        return try Validation.text(text, field: "text", max: Validation.maxPollOptionLength)
    }

    /// nil: not given; `.some(nil)`: -1, no closing time; otherwise a time to come (400111 for one past).
    static func closeAt(_ value: Int64?, now: Int64) throws -> Int64?? {
        guard let value else { return nil }
        if value == -1 { return .some(nil) }
        guard value > now else { throw ParleyError.invalidValue("close_at", "must be -1 or a time to come, in milliseconds") }
        return .some(value)
    }

    /// `group` or `open` (also `group_channels`, `open_channels`; default `group`).
    static func channelKind(_ text: String?) throws -> ChannelKind {
        switch text {
        case nil, "group", "group_channels": return .group
        case "open", "open_channels": return .open
        default: throw ParleyError.invalidValue("channel_type", "must be group or open")
        }
    }
}
