import ParleyCore
import Postgres

/// SQL of a GDPR erasure (API.md §14.1) beyond the removal of each message, which the chat
/// services do as for any deletion: the user's traces in the tombstones of their messages, in
/// others' records (reactions, votes, reports, the audit log) and in the stored copies of events
/// and webhook deliveries. Every step works in batches and is safe to run again.
public struct ErasureRepository {
    let connection: PostgresConnection

    /// The next messages the user sent (removed ones too: their tombstones still name the
    /// sender), in id order after `afterID`.
    public func sentMessages(by userID: String, after afterID: Int64, limit: Int) throws -> [(channelURL: String, messageID: Int64)] {
        try connection.query(
            """
            SELECT channel_url, message_id FROM messages WHERE sender_id = $1 AND message_id > $2 ORDER BY message_id LIMIT $3
            """,
            [userID, afterID, Int64(limit)]
        ).map { (try $0.decode("channel_url"), try $0.decode("message_id")) }
    }

    /// Forgets the cached link previews of the URLs in these messages (before their text goes).
    public func forgetPreviews(of messageIDs: [Int64]) throws {
        try connection.query(
            """
            DELETE FROM link_previews p USING messages m
            WHERE m.message_id = ANY($1::bigint[]) AND m.message <> '' AND strpos(m.message, p.url) > 0
            """,
            [messageIDs.map(String.init)])
    }

    /// Takes the sender out of their (already removed) messages, with the polls they carried and
    /// their pushes still queued.
    public func anonymiseSender(of messageIDs: [Int64]) throws {
        let ids = messageIDs.map(String.init)
        try connection.query(
            """
            UPDATE messages SET sender_id = NULL, sender_nickname = '', sender_profile_url = '', dedup_id = NULL, most_replies = NULL
            WHERE message_id = ANY($1::bigint[])
            """,
            [ids])
        try connection.query("DELETE FROM polls WHERE message_id = ANY($1::bigint[])", [ids])
        try connection.query("DELETE FROM push_queue WHERE message_id = ANY($1::bigint[])", [ids])
    }

    /// What the user left in others' records, and their scheduled messages (whose uploaded files'
    /// ids are returned, for their removal).
    public func scrubRecords(of userID: String, needles: [String], pseudonym: String) throws -> (removed: [String: Int], fileIDs: [String])
    {
        var removed: [String: Int] = [:]
        let scheduled = try connection.query(
            "DELETE FROM scheduled_messages WHERE sender_id = $1 RETURNING file ->> 'file_id' AS file_id", [userID])
        removed["scheduled_messages"] = scheduled.count
        let fileIDs = try scheduled.compactMap { try $0.decodeIfPresent("file_id", as: String.self) }
        try connection.query("DELETE FROM files WHERE file_id = ANY($1)", [fileIDs])
        removed["reactions"] = try connection.query("DELETE FROM message_reactions WHERE user_id = $1", [userID]).affectedRows
        removed["poll_votes"] = try connection.query(
            """
            WITH gone AS (DELETE FROM poll_votes WHERE user_id = $1 RETURNING option_id, poll_id),
            options AS (UPDATE poll_options o SET vote_count = o.vote_count - g.n
                FROM (SELECT option_id, count(*) AS n FROM gone GROUP BY option_id) g WHERE o.option_id = g.option_id RETURNING 1),
            voters AS (UPDATE polls p SET voter_count = greatest(p.voter_count - 1, 0) FROM (SELECT DISTINCT poll_id FROM gone) g
                WHERE p.poll_id = g.poll_id RETURNING 1)
            SELECT count(*) AS n FROM gone
            """,
            [userID]
        )[0].decode("n", as: Int.self)
        removed["poll_options"] = try connection.query(
            "UPDATE poll_options SET text = '', created_by = NULL WHERE created_by = $1", [userID]
        ).affectedRows
        try connection.query("UPDATE polls SET created_by = NULL WHERE created_by = $1", [userID])
        try connection.query("DELETE FROM thread_repliers WHERE user_id = $1", [userID])
        try connection.query("DELETE FROM message_dedup WHERE sender_id = $1", [userID])
        try connection.query("UPDATE pinned_messages SET pinned_by = NULL WHERE pinned_by = $1", [userID])
        // Reports and the audit log stay (the moderators' record) with the user's words and name out.
        try connection.query(
            """
            UPDATE reports SET reported_message = NULL, offending_user_id = $2, target_key = replace(target_key, $1, $2)
            WHERE offending_user_id = $1
            """,
            [userID, pseudonym])
        try connection.query(
            "UPDATE reports SET report_description = '', reporting_user_id = $2 WHERE reporting_user_id = $1", [userID, pseudonym])
        // Others' reported messages that show the user (a mention, a reaction, a thread reply).
        try connection.query(
            """
            UPDATE reports SET reported_message = parley_redact_user(reported_message::jsonb, $1, $2)::text
            WHERE reported_message IS NOT NULL AND EXISTS (SELECT 1 FROM unnest($3::text[]) n WHERE strpos(reported_message, n) > 0)
            """,
            [userID, pseudonym, needles])
        try connection.query("UPDATE reports SET resolved_by = $2 WHERE resolved_by = $1", [userID, pseudonym])
        try connection.query("UPDATE audit_logs SET actor_id = $2 WHERE actor_id = $1", [userID, pseudonym])
        try connection.query("UPDATE audit_logs SET target_user_id = $2 WHERE target_user_id = $1", [userID, pseudonym])
        try connection.query("DELETE FROM group_channel_departures WHERE user_id = $1", [userID])
        // Who made channels and invited others, and who was active on a day, stay as counts and
        // facts under the pseudonym; the flood window of the user's sends goes.
        try connection.query("UPDATE group_channel_members SET inviter_id = $2 WHERE inviter_id = $1", [userID, pseudonym])
        try connection.query("UPDATE group_channels SET created_by = $2 WHERE created_by = $1", [userID, pseudonym])
        try connection.query("UPDATE open_channels SET created_by = $2 WHERE created_by = $1", [userID, pseudonym])
        try connection.query("UPDATE daily_active_users SET user_id = $2 WHERE user_id = $1", [userID, pseudonym])
        try connection.query("DELETE FROM send_rate_windows WHERE user_id = $1", [userID])
        return (removed, fileIDs)
    }

    /// One batch of the messages after `afterID` (by id): the user's id in their mentions becomes
    /// the pseudonym. Returns the last message id looked at, nil when none was left.
    public func scrubMentions(of userID: String, pseudonym: String, after afterID: Int64, limit: Int) throws -> Int64? {
        let last = try connection.query(
            "SELECT max(message_id) AS last FROM (SELECT message_id FROM messages WHERE message_id > $1 ORDER BY message_id LIMIT $2) b",
            [afterID, Int64(limit)]
        )[0]
        guard let lastID = try last.decodeIfPresent("last", as: Int64.self) else { return nil }
        try connection.query(
            """
            UPDATE messages SET mentioned_user_ids = array_replace(mentioned_user_ids, $1, $2)
            WHERE message_id > $3 AND message_id <= $4 AND $1 = ANY(mentioned_user_ids)
            """,
            [userID, pseudonym, afterID, lastID])
        return lastID
    }

    /// One batch of the stored events after `afterID`: those that carry what the user did (a
    /// message they sent, their reaction, their report or one about them) or were only for them
    /// are deleted; the user is taken out of the others that name them (`parley_redact_user`).
    /// Returns the last event id looked at (nil when none was left) and how many were deleted.
    public func scrubEvents(of userID: String, needles: [String], pseudonym: String, after afterID: Int64, limit: Int) throws
        -> (lastID: Int64?, deleted: Int)
    {
        // An event for the user alone may name them in `user_ids` only (`session_ended`).
        try scrub(
            table: "events", id: "event_id", data: "data",
            extra: ", user_ids = array_replace(user_ids, $1, $5), except_user_id = NULLIF(except_user_id, $1)",
            gone: "OR (audience = 2 AND user_ids = ARRAY[$1]::text[])", alsoNaming: "$1 = ANY(user_ids) OR except_user_id = $1",
            userID, needles, pseudonym, afterID, limit)
    }

    /// The same for the webhook deliveries (a redacted one is rendered again when it is sent).
    /// Its claim is dropped too: an attempt in flight, rendered before, would otherwise record
    /// the body it sent (`WebhookRepository.record`), the user's data with it; without the claim
    /// its outcome is not recorded, and the redacted delivery is sent again (at least once).
    public func scrubWebhookDeliveries(of userID: String, needles: [String], pseudonym: String, after afterID: Int64, limit: Int)
        throws -> (lastID: Int64?, deleted: Int)
    {
        try scrub(
            table: "webhook_deliveries", id: "delivery_id", data: "event_data", extra: ", body = NULL, claimed_until = NULL", gone: "",
            userID, needles, pseudonym, afterID, limit)
    }

    /// `alsoNaming`: a condition on other columns of rows that name the user without `data`
    /// holding them.
    private func scrub(
        table: String, id: String, data: String, extra: String, gone: String, alsoNaming: String = "false", _ userID: String,
        _ needles: [String], _ pseudonym: String, _ afterID: Int64, _ limit: Int
    ) throws -> (lastID: Int64?, deleted: Int) {
        let last = try connection.query(
            "SELECT max(\(id)) AS last FROM (SELECT \(id) FROM \(table) WHERE \(id) > $1 ORDER BY \(id) LIMIT $2) b",
            [afterID, Int64(limit)]
        )[0]
        guard let lastID = try last.decodeIfPresent("last", as: Int64.self) else { return (nil, 0) }
        let touched = """
            \(id) > $2 AND \(id) <= $3 AND (EXISTS (SELECT 1 FROM unnest($4::text[]) n WHERE strpos(\(data), n) > 0) OR \(alsoNaming))
            """
        let deleted = try connection.query(
            """
            DELETE FROM \(table) WHERE \(touched)
                AND ($1 IN (\(data)::jsonb #>> '{message,_0,sender,userID}', \(data)::jsonb #>> '{reaction,userID}',
                    \(data)::jsonb #>> '{report,_0,reportingUser,userID}', \(data)::jsonb #>> '{report,_0,offendingUser,userID}') \(gone))
            """,
            [userID, afterID, lastID, needles]
        ).affectedRows
        try connection.query(
            "UPDATE \(table) SET \(data) = parley_redact_user(\(data)::jsonb, $1, $5)::text \(extra) WHERE \(touched)",
            [userID, afterID, lastID, needles, pseudonym])
        return (lastID, deleted)
    }
}

extension ErasureRepository {
    /// Group channels the user is a member of that a GDPR deletion takes with them: all of them,
    /// or only their 1-to-1 channels (two members).
    public func channelsToDelete(of userID: String, onlyOneToOne: Bool, limit: Int) throws -> [String] {
        try connection.query(
            """
            SELECT c.channel_url FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.user_id = $1 AND (NOT $2 OR c.member_count = 2) ORDER BY c.channel_url LIMIT $3
            """,
            [userID, onlyOneToOne, Int64(limit)]
        ).map { try $0.decode("channel_url") }
    }
}
