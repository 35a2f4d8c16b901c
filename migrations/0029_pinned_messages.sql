-- Pinned messages (API.md §13.2): a channel's pins, newest first. A message's pin goes with the
-- message (and with its channel, whose messages go with it); a deleted message is unpinned in
-- its deletion's transaction.
CREATE TABLE pinned_messages (
    channel_url text COLLATE "C" NOT NULL,
    message_id  bigint NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    pinned_by   text COLLATE "C",
    pinned_at   bigint NOT NULL,
    PRIMARY KEY (channel_url, message_id)
);
CREATE INDEX pinned_messages_recent_idx ON pinned_messages (channel_url, pinned_at DESC, message_id DESC);

-- A group channel's pinned ids, newest pin first, kept on its row by every change of its pins
-- (also a message's deletion cascading): a channel view reads them with the channel's own
-- fields instead of a query of its own, and a change of them is a change of the channel for
-- its changelog.
ALTER TABLE group_channels ADD COLUMN pinned_message_ids bigint[] NOT NULL DEFAULT '{}';

CREATE FUNCTION parley_pins_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    url text := COALESCE(NEW.channel_url, OLD.channel_url);
BEGIN
    UPDATE group_channels SET pinned_message_ids = COALESCE((
        SELECT array_agg(message_id ORDER BY pinned_at DESC, message_id DESC) FROM pinned_messages WHERE channel_url = url
    ), '{}') WHERE channel_url = url;
    RETURN NULL;
END $$;
CREATE TRIGGER pinned_messages_changed AFTER INSERT OR DELETE ON pinned_messages
    FOR EACH ROW EXECUTE FUNCTION parley_pins_changed();

DROP TRIGGER group_channels_changed ON group_channels;
CREATE TRIGGER group_channels_changed BEFORE UPDATE OF
    name, cover_url, custom_type, data, is_distinct, is_public, is_super, is_ephemeral, access_code_hash, is_frozen,
    member_count, joined_member_count, last_message_at, pinned_message_ids
    ON group_channels FOR EACH ROW EXECUTE FUNCTION parley_touch_changed_at();
