import ParleyCore
import Postgres

/// SQL for `polls`, `poll_options` and `poll_votes` (API.md §13.4). Every change of a poll's
/// votes or options runs after `find(_:forUpdate: true)` has locked its row, so the counts on the
/// option and poll rows stay exact under concurrent votes.
public struct PollRepository {
    let connection: PostgresConnection

    /// Stores a poll with its options, in order; returns its id.
    public func insert(_ new: NewPoll, now: Int64) throws -> Int64 {
        try connection.query(
            """
            WITH poll AS (
                INSERT INTO polls (title, data, allow_user_suggestion, allow_multiple_votes, close_at, created_by, channel_url,
                    channel_type, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING poll_id
            ), options AS (
                INSERT INTO poll_options (poll_id, text, created_by, created_at, updated_at)
                SELECT poll.poll_id, o.text, $6, $9, $9 FROM poll, unnest($10::text[]) WITH ORDINALITY AS o(text, n) ORDER BY o.n
            )
            SELECT poll_id FROM poll
            """,
            [
                new.title, new.data, new.allowUserSuggestion, new.allowMultipleVotes, new.closeAt, new.createdBy, new.channel?.url,
                new.channel?.kind.rawValue, now, new.options
            ]
        )[0].decode("poll_id")
    }

    /// The poll with its options (its row locked until the transaction ends with `forUpdate`).
    public func find(_ pollID: Int64, forUpdate: Bool = false) throws -> Poll? {
        let rows = try connection.query("SELECT \(Self.columns) FROM polls WHERE poll_id = $1 \(forUpdate ? "FOR UPDATE" : "")", [pollID])
        guard let row = rows.first else { return nil }
        var poll = try Self.poll(row)
        poll.options = try options([pollID])[pollID] ?? []
        return poll
    }

    /// The polls with these ids, with their options: those of a page of messages.
    public func polls(_ pollIDs: [Int64]) throws -> [Int64: Poll] {
        guard !pollIDs.isEmpty else { return [:] }
        let ids = pollIDs.map(String.init)
        let options = try options(pollIDs)
        var polls: [Int64: Poll] = [:]
        for row in try connection.query("SELECT \(Self.columns) FROM polls WHERE poll_id = ANY($1::bigint[])", [ids]) {
            var poll = try Self.poll(row)
            poll.options = options[poll.pollID] ?? []
            polls[poll.pollID] = poll
        }
        return polls
    }

    /// Polls newest first, before `beforeID`: those of one channel, those one user made, or all.
    public func list(_ scope: PollListScope, beforeID: Int64?, limit: Int) throws -> [Poll] {
        let (condition, values): (String, [any PostgresBindable]) =
            switch scope {
            case .channel(let url, let kind): ("channel_url = $3 AND channel_type = $4", [url, kind.rawValue])
            case .createdBy(let userID): ("created_by = $3", [userID])
            case .all: ("true", [])
            }
        let rows = try connection.query(
            """
            SELECT \(Self.columns) FROM polls WHERE \(condition) AND ($1::bigint IS NULL OR poll_id < $1)
            ORDER BY poll_id DESC LIMIT $2
            """,
            [beforeID, Int64(limit)] + values)
        let options = try options(try rows.map { try $0.decode("poll_id") })
        return try rows.map { row in
            var poll = try Self.poll(row)
            poll.options = options[poll.pollID] ?? []
            return poll
        }
    }

    private func options(_ pollIDs: [Int64]) throws -> [Int64: [PollOption]] {
        let rows = try connection.query(
            """
            SELECT option_id, poll_id, text, created_by, vote_count, created_at, updated_at FROM poll_options
            WHERE poll_id = ANY($1::bigint[]) ORDER BY poll_id, option_id
            """,
            [pollIDs.map(String.init)])
        var options: [Int64: [PollOption]] = [:]
        for row in rows {
            let option = PollOption(
                optionID: try row.decode("option_id"), pollID: try row.decode("poll_id"), text: try row.decode("text"),
                createdBy: try row.decodeIfPresent("created_by"), voteCount: try row.decode("vote_count"),
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
            options[option.pollID, default: []].append(option)
        }
        return options
    }

    public func update(_ pollID: Int64, _ change: PollUpdate, now: Int64) throws {
        try connection.query(
            """
            UPDATE polls SET title = COALESCE($2, title), data = COALESCE($3, data),
                allow_user_suggestion = COALESCE($4, allow_user_suggestion), allow_multiple_votes = COALESCE($5, allow_multiple_votes),
                close_at = CASE WHEN $6 THEN $7 ELSE close_at END, updated_at = $8
            WHERE poll_id = $1
            """,
            [
                pollID, change.title, change.data, change.allowUserSuggestion, change.allowMultipleVotes, change.closeAt != nil,
                change.closeAt ?? nil, now
            ])
    }

    public func close(_ pollID: Int64, now: Int64) throws {
        try connection.query("UPDATE polls SET is_closed = true, updated_at = $2 WHERE poll_id = $1", [pollID, now])
    }

    /// Deletes the poll; the message that carried it no longer does.
    public func delete(_ pollID: Int64) throws {
        try connection.query(
            "UPDATE messages SET poll_id = NULL WHERE message_id = (SELECT message_id FROM polls WHERE poll_id = $1)", [pollID])
        try connection.query("DELETE FROM polls WHERE poll_id = $1", [pollID])
    }

    /// Gives the poll its channel and message (a message sent with its `poll_id`).
    public func attach(_ pollID: Int64, channelURL: String, kind: ChannelKind, messageID: Int64, now: Int64) throws {
        try connection.query(
            "UPDATE polls SET channel_url = $2, channel_type = $3, message_id = $4, updated_at = $5 WHERE poll_id = $1",
            [pollID, channelURL, kind.rawValue, messageID, now])
    }

    /// Adds an option at the end; returns its id.
    public func addOption(_ pollID: Int64, text: String, createdBy: String?, now: Int64) throws -> Int64 {
        let id: Int64 = try connection.query(
            """
            INSERT INTO poll_options (poll_id, text, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
            RETURNING option_id
            """,
            [pollID, text, createdBy, now])[0].decode("option_id")
        try touch(pollID, now: now)
        return id
    }

    public func updateOption(_ pollID: Int64, _ optionID: Int64, text: String, now: Int64) throws {
        try connection.query("UPDATE poll_options SET text = $2, updated_at = $3 WHERE option_id = $1", [optionID, text, now])
        try touch(pollID, now: now)
    }

    /// Removes an option with its votes; the poll's voters are counted again (some voted only for it).
    public func deleteOption(_ pollID: Int64, _ optionID: Int64, now: Int64) throws {
        try connection.query("DELETE FROM poll_options WHERE option_id = $1", [optionID])
        try connection.query(
            """
            UPDATE polls SET voter_count = (SELECT count(DISTINCT user_id) FROM poll_votes WHERE poll_id = $1), updated_at = $2
            WHERE poll_id = $1
            """,
            [pollID, now])
    }

    /// Replaces `userID`'s votes in the poll with `optionIDs` (none: takes them back); the option
    /// counts and the poll's voter count move by the difference. False when nothing changed.
    public func vote(_ pollID: Int64, userID: String, optionIDs: [Int64], now: Int64) throws -> Bool {
        let ids = optionIDs.map(String.init)
        let row = try connection.query(
            """
            WITH old AS (
                DELETE FROM poll_votes WHERE poll_id = $1 AND user_id = $2 AND NOT (option_id = ANY($3::bigint[])) RETURNING option_id
            ), new AS (
                INSERT INTO poll_votes (option_id, poll_id, user_id, voted_at) SELECT o, $1, $2, $4 FROM unnest($3::bigint[]) AS o
                ON CONFLICT DO NOTHING RETURNING option_id
            ), counted AS (
                UPDATE poll_options p SET vote_count = p.vote_count + d.delta, updated_at = $4
                FROM (SELECT option_id, sum(delta) AS delta FROM (
                    SELECT option_id, -1 AS delta FROM old UNION ALL SELECT option_id, 1 FROM new) c GROUP BY option_id) d
                WHERE p.option_id = d.option_id
            )
            SELECT (SELECT count(*) FROM poll_votes WHERE poll_id = $1 AND user_id = $2) AS before,
                (SELECT count(*) FROM old) AS removed, (SELECT count(*) FROM new) AS added
            """,
            [pollID, userID, ids, now])[0]
        let (before, removed, added): (Int, Int, Int) = (try row.decode("before"), try row.decode("removed"), try row.decode("added"))
        guard removed + added > 0 else { return false }
        let after = before - removed + added
        let voters = before == 0 && after > 0 ? 1 : (before > 0 && after == 0 ? -1 : 0)
        try connection.query(
            "UPDATE polls SET voter_count = voter_count + $2, updated_at = $3 WHERE poll_id = $1", [pollID, Int64(voters), now])
        return true
    }

    /// Who voted for the option, in user id order after `afterUserID`, at most `limit`.
    public func voters(_ optionID: Int64, afterUserID: String?, limit: Int) throws -> [BasicUser] {
        try connection.query(
            """
            SELECT u.user_id, u.nickname, u.profile_url, u.is_active FROM poll_votes v JOIN users u ON u.user_id = v.user_id
            WHERE v.option_id = $1 AND ($2::text IS NULL OR v.user_id > $2) ORDER BY v.user_id LIMIT $3
            """,
            [optionID, afterUserID, Int64(limit)]
        ).map(UserRepository.basicUser)
    }

    /// The option ids `userID` voted for in these polls.
    public func votes(of userID: String, in pollIDs: [Int64]) throws -> [Int64: [Int64]] {
        guard !pollIDs.isEmpty else { return [:] }
        var votes: [Int64: [Int64]] = [:]
        for row in try connection.query(
            "SELECT poll_id, option_id FROM poll_votes WHERE user_id = $1 AND poll_id = ANY($2::bigint[]) ORDER BY option_id",
            [userID, pollIDs.map(String.init)])
        {
            votes[try row.decode("poll_id"), default: []].append(try row.decode("option_id"))
        }
        return votes
    }

    private func touch(_ pollID: Int64, now: Int64) throws {
        try connection.query("UPDATE polls SET updated_at = $2 WHERE poll_id = $1", [pollID, now])
    }

    static let columns = """
        poll_id, title, data, allow_user_suggestion, allow_multiple_votes, close_at, is_closed, created_by, channel_url, channel_type,
        message_id, voter_count, created_at, updated_at
        """

    static func poll(_ row: PostgresRow) throws -> Poll {
        var poll = Poll(
            pollID: try row.decode("poll_id"), title: try row.decode("title"), data: try row.decode("data"),
            allowUserSuggestion: try row.decode("allow_user_suggestion"), allowMultipleVotes: try row.decode("allow_multiple_votes"),
            closeAt: try row.decodeIfPresent("close_at"), isClosed: try row.decode("is_closed"),
            createdBy: try row.decodeIfPresent("created_by"),
            voterCount: try row.decode("voter_count"), options: [], createdAt: try row.decode("created_at"),
            updatedAt: try row.decode("updated_at"))
        poll.channelURL = try row.decodeIfPresent("channel_url")
        poll.channelKind = try row.decodeIfPresent("channel_type")
        poll.messageID = try row.decodeIfPresent("message_id")
        return poll
    }
}
