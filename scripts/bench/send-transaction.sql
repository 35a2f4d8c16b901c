-- The send path's transaction, as pgbench runs it (scripts/bench/messages): the statements the
-- server sends for a message into a 10-member channel, with real timestamps so that pgbench does
-- the same row work (every member's sort key moves with each message): the channel's lock, the
-- sender, the message with its members and its push, and its event with the webhook queue.
-- Keep it in step with MessageRepository.insert and EventRepository.flush. The JSON has a space
-- after each colon: pgbench takes a colon and a name for a variable, also in comments.
\set c random(1, 100)
\set u random(1, 10)
BEGIN;
SELECT channel_url, is_distinct, is_public, is_super, is_ephemeral, access_code_hash, is_frozen, member_count FROM group_channels WHERE channel_url = 'c' || :c FOR NO KEY UPDATE;
SELECT m.state, m.is_operator, u.user_id, u.nickname, u.profile_url, u.is_active, mu.end_at AS muted_until
  FROM group_channel_members m JOIN users u ON u.user_id = m.user_id
    LEFT JOIN (SELECT * FROM channel_mutes WHERE channel_type = 'group' AND (end_at = -1 OR end_at > 1)) mu
      ON mu.channel_url = m.channel_url AND mu.user_id = m.user_id
  WHERE m.channel_url = 'c' || :c AND m.user_id = 'u' || :u;
WITH blocker AS (
    SELECT o.user_id FROM group_channels c
    JOIN group_channel_members o ON o.channel_url = c.channel_url AND o.user_id <> 'u' || :u
    JOIN user_blocks b ON b.blocker_id = o.user_id AND b.blocked_id = 'u' || :u
    WHERE c.channel_url = 'c' || :c AND c.member_count = 2 AND c.peak_member_count <= 2
), channel AS (
    UPDATE group_channels SET message_seq = message_seq + 1, counted_seq = counted_seq + CASE WHEN EXISTS (SELECT 1 FROM blocker) THEN 0 ELSE 1 END,
        last_message_at = GREATEST((extract(epoch FROM clock_timestamp()) * 1000)::bigint, COALESCE(last_message_at, 0) + 1),
        activity_at = GREATEST((extract(epoch FROM clock_timestamp()) * 1000)::bigint, COALESCE(last_message_at, 0) + 1)
    WHERE channel_url = 'c' || :c RETURNING message_seq, counted_seq, last_message_at
), inserted AS (
    INSERT INTO messages (message_id, channel_url, seq, counted_seq, message_type, sender_id, sender_nickname, sender_profile_url,
        message, custom_type, data, mention_type, mentioned_user_ids, sorted_metaarray, is_silent, is_op_msg, dedup_id, created_at, hidden_from)
    SELECT nextval('message_ids'), 'c' || :c, channel.message_seq, channel.counted_seq, 'MESG', 'u' || :u, 'User', '', 'hello',
        '', '', 'users', '{}', '[]'::jsonb, false, false, NULL, channel.last_message_at, (SELECT user_id FROM blocker)
    FROM channel RETURNING message_id, counted_seq, created_at, hidden_from
), members AS (
    UPDATE group_channel_members m SET activity_at = GREATEST(m.activity_at, inserted.created_at),
        hidden_state = CASE WHEN m.hidden_state = 1 AND m.user_id IS DISTINCT FROM 'u' || :u THEN 0 ELSE m.hidden_state END,
        read_seq = CASE WHEN m.user_id = 'u' || :u THEN inserted.counted_seq ELSE m.read_seq END,
        read_ts = CASE WHEN m.user_id = 'u' || :u THEN GREATEST(m.read_ts, inserted.created_at) ELSE m.read_ts END,
        unread_mentions = CASE WHEN m.user_id = 'u' || :u THEN 0 ELSE m.unread_mentions END
    FROM inserted
    WHERE m.channel_url = 'c' || :c AND m.user_id IS DISTINCT FROM inserted.hidden_from
      AND (m.activity_at < inserted.created_at OR (m.hidden_state = 1 AND m.user_id IS DISTINCT FROM 'u' || :u) OR m.user_id = 'u' || :u)
), queued AS (
    INSERT INTO push_queue (message_id, channel_url, created_at, next_attempt_at)
    SELECT message_id, 'c' || :c, created_at, created_at FROM inserted WHERE true
)
SELECT message_id, created_at, hidden_from FROM inserted;
WITH producing AS MATERIALIZED (
    SELECT pg_advisory_xact_lock_shared(1347570777, 0)
), locked AS MATERIALIZED (
    SELECT (
        SELECT count(pg_advisory_xact_lock(1347570777, hashtext(channel_url)))
        FROM (SELECT DISTINCT channel_url FROM unnest(ARRAY['c' || :c::text]) AS channel_url WHERE channel_url IS NOT NULL ORDER BY channel_url) AS channels
    ) AS locks
    FROM producing
), written AS (
    INSERT INTO events (event_id, created_at, type, channel_url, audience, user_ids, data, except_user_id, channel_type)
    SELECT nextval('event_ids'), (extract(epoch FROM clock_timestamp()) * 1000)::bigint, e.type, e.channel_url, e.audience,
        CASE WHEN e.user_ids = '' THEN '{}'::text[] ELSE string_to_array(e.user_ids, E'\n') END, e.data, e.except_user_id, e.channel_type
    FROM locked, unnest(ARRAY['MESSAGE_RECEIVED'], ARRAY['c' || :c::text], ARRAY[0::smallint], ARRAY[''],
        ARRAY['{"channel_type": "group", "channel_url": "c' || :c::text || '", "message": {"type": "MESG", "message_id": 1, "message": "hello", '
            || '"data": "", "custom_type": "", "created_at": 1700000000000, "updated_at": 0, "user": {"user_id": "u' || :u::text || '", '
            || '"nickname": "User", "profile_url": "", "metadata": {}}, "mention_type": "users", "mentioned_users": [], "is_removed": false, '
            || '"is_op_msg": false, "silent": false, "message_survival_seconds": -1, "sorted_metaarray": [], "translations": {}, "reactions": []}}'],
        ARRAY[NULL::text], ARRAY['group'])
        WITH ORDINALITY AS e(type, channel_url, audience, user_ids, data, except_user_id, channel_type, ord)
    ORDER BY e.ord
    RETURNING event_id, created_at, type, channel_url, data, channel_type
), categorised AS (
    SELECT w.*, 'group_channel' || chr(58) || 'message_send' AS category FROM written w
)
INSERT INTO webhook_deliveries (event_id, category, event_type, channel_url, channel_type, event_data, event_created_at, next_attempt_at, created_at)
SELECT DISTINCT ON (c.event_id) c.event_id, c.category, c.type, c.channel_url, c.channel_type, c.data, c.created_at, c.created_at, c.created_at
FROM categorised c JOIN webhook_settings s ON s.enabled AND s.url <> '' AND s.enabled_events && ARRAY['*', c.category];
COMMIT;
