import ParleyCore
import Postgres

extension EventRepository {
    /// The statement that writes the transaction's events (see `flush`), for the transaction to
    /// send with its COMMIT; nil when there are none.
    func flushStatement() throws -> Query<Void>? {
        let taken = pending.take()
        guard !taken.isEmpty else { return nil }
        let events = taken.map(\.event)
        let data = try events.map { try StoredMessagePayload.text(of: $0.payload) }
        for (event, text) in zip(events, data) { EventPayloadMemo.shared.remember(event.payload, storedAs: text) }
        // The webhook category of each event (API.md §10): those the settings subscribe to are
        // queued for delivery by the same statement, so with the event's transaction.
        let categories = events.map { WebhookCategory.of($0.type, kind: $0.channelKind, payload: $0.payload) }
        return Query(
            """
            WITH producing AS MATERIALIZED (
                SELECT pg_advisory_xact_lock_shared(\(Self.lockSpace), 0)
            ), locked AS MATERIALIZED (
                SELECT (
                    SELECT count(pg_advisory_xact_lock(\(Self.lockSpace), hashtext(channel_url)))
                    FROM (SELECT DISTINCT channel_url FROM unnest($2::text[]) AS channel_url
                          WHERE channel_url IS NOT NULL ORDER BY channel_url) AS channels
                ) AS locks
                FROM producing
            ), written AS (
                INSERT INTO events (event_id, created_at, type, channel_url, audience, user_ids, data, except_user_id, channel_type)
                SELECT nextval('event_ids'), (extract(epoch FROM clock_timestamp()) * 1000)::bigint, e.type, e.channel_url, e.audience,
                    CASE WHEN e.user_ids = '' THEN '{}'::text[] ELSE string_to_array(e.user_ids, E'\\n') END, e.data, e.except_user_id,
                    e.channel_type
                FROM locked, unnest($1::text[], $2::text[], $3::smallint[], $4::text[], $5::text[], $6::text[], $7::text[])
                    WITH ORDINALITY AS e(type, channel_url, audience, user_ids, data, except_user_id, channel_type, ord)
                ORDER BY e.ord
                RETURNING event_id, created_at, type, channel_url, data, channel_type
            ), categorised AS (
                SELECT w.*, c.category, c.traceparent FROM written w
                JOIN unnest($1::text[], $5::text[], $8::text[], $9::text[]) AS c(type, data, category, traceparent)
                    ON c.category IS NOT NULL AND c.type = w.type AND c.data = w.data
            ), bot_queued AS (
                -- A bot (API.md §14.8) hears every message of the group channels it has joined but
                -- its own; in privacy mode only those starting with "/" or mentioning it. Driven by
                -- the bots: with none this is a scan of an empty table, with a few one primary-key
                -- probe of the members each (the LIMIT keeps the planner from scanning a large
                -- channel's members instead).
                INSERT INTO webhook_deliveries (event_id, category, event_type, channel_url, channel_type, event_data,
                    event_created_at, next_attempt_at, created_at, bot_user_id)
                SELECT w.event_id, 'bot_message_notification', w.type, w.channel_url, w.channel_type, w.data, w.created_at,
                    w.created_at, w.created_at, b.user_id
                FROM written w CROSS JOIN bots b
                CROSS JOIN LATERAL (
                    SELECT 1 FROM group_channel_members m
                    WHERE m.channel_url = w.channel_url AND m.user_id = b.user_id AND m.state = 'joined' LIMIT 1
                ) AS member
                CROSS JOIN LATERAL (SELECT w.data::jsonb #> '{message,_0}' AS message) AS d
                WHERE w.type = 'message_received' AND w.channel_type = 'group'
                    AND d.message #>> '{sender,userID}' IS DISTINCT FROM b.user_id
                    AND (NOT b.is_privacy_mode OR starts_with(d.message ->> 'message', '/')
                        OR d.message -> 'mentionedUserIDs' ? b.user_id OR d.message ->> 'mentionType' = 'channel')
            )
            INSERT INTO webhook_deliveries (event_id, category, event_type, channel_url, channel_type, event_data, event_created_at,
                next_attempt_at, created_at, traceparent)
            SELECT DISTINCT ON (c.event_id) c.event_id, c.category, c.type, c.channel_url, c.channel_type, c.data, c.created_at,
                c.created_at, c.created_at, c.traceparent
            FROM categorised c JOIN webhook_settings s ON s.enabled AND s.url <> '' AND s.enabled_events && ARRAY['*', c.category]
            """,
            [
                events.map(\.type.rawValue), events.map(\.channelURL), events.map { Int64($0.audience.rawValue) },
                events.map { $0.userIDs.joined(separator: "\n") }, data, events.map(\.exceptUserID), events.map(\.channelKind.rawValue),
                categories, taken.map(\.traceParent)
            ]
        ) { _ in }
    }
}
