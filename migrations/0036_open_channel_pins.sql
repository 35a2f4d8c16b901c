-- Pinned messages of open channels (API.md §13.2): an open channel's pinned ids, newest pin first,
-- kept on its row as a group channel's are (migration 0029), by the same trigger.
ALTER TABLE open_channels ADD COLUMN pinned_message_ids bigint[] NOT NULL DEFAULT '{}';

CREATE OR REPLACE FUNCTION parley_pins_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    url text := COALESCE(NEW.channel_url, OLD.channel_url);
    pinned bigint[] := COALESCE((
        SELECT array_agg(message_id ORDER BY pinned_at DESC, message_id DESC) FROM pinned_messages WHERE channel_url = url
    ), '{}');
BEGIN
    -- Channel URLs are one namespace over both kinds: one of the two updates finds the row.
    UPDATE group_channels SET pinned_message_ids = pinned WHERE channel_url = url;
    UPDATE open_channels SET pinned_message_ids = pinned WHERE channel_url = url;
    RETURN NULL;
END $$;

UPDATE open_channels c SET pinned_message_ids = p.ids
FROM (SELECT channel_url, array_agg(message_id ORDER BY pinned_at DESC, message_id DESC) AS ids FROM pinned_messages GROUP BY channel_url) p
WHERE p.channel_url = c.channel_url;
