-- Catch-up over REST (API.md §6.6): when each message, channel and membership last changed, and
-- which channels each user is no longer in, so that a client that was away (or was told
-- `resync_required`) finds what moved without reading everything again.

-- A message's last edit, meta-array change, reaction or deletion (set by the statements that
-- make them). 0: never changed since it was sent.
ALTER TABLE messages ADD COLUMN changed_at bigint NOT NULL DEFAULT 0;
CREATE INDEX messages_changes_idx ON messages (channel_url, changed_at, message_id) WHERE changed_at > 0;

-- Channels and memberships change in some twenty statements (and more with each feature):
-- triggers keep `changed_at` right for all of them, present and future.
CREATE FUNCTION parley_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS
    $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

CREATE FUNCTION parley_touch_changed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_at := parley_now_ms();
    RETURN NEW;
END $$;

ALTER TABLE group_channels ADD COLUMN changed_at bigint NOT NULL DEFAULT 0;
-- The channel's own fields and its last message; not the message counters alone.
CREATE TRIGGER group_channels_changed BEFORE UPDATE OF
    name, cover_url, custom_type, data, is_distinct, is_public, is_super, is_ephemeral, access_code_hash, is_frozen,
    member_count, joined_member_count, last_message_at
    ON group_channels FOR EACH ROW EXECUTE FUNCTION parley_touch_changed_at();

CREATE FUNCTION parley_channel_metadata_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE group_channels SET changed_at = parley_now_ms() WHERE channel_url = COALESCE(NEW.channel_url, OLD.channel_url);
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_metadata_changed AFTER INSERT OR UPDATE OR DELETE ON group_channel_metadata
    FOR EACH ROW EXECUTE FUNCTION parley_channel_metadata_changed();

-- The member's own view: joining, role, hiding, history offsets. Not activity_at, which every
-- message moves for every member (the channel's last_message_at covers that, once).
ALTER TABLE group_channel_members ADD COLUMN changed_at bigint NOT NULL DEFAULT 0;
CREATE TRIGGER group_channel_members_changed BEFORE INSERT OR UPDATE OF
    state, is_operator, hidden_state, messages_hidden_before, ts_message_offset
    ON group_channel_members FOR EACH ROW EXECUTE FUNCTION parley_touch_changed_at();

-- A user's channels that they left, were removed from, or that were deleted: the `deleted` of
-- their channel changelog. No foreign keys: the rows outlive the channel by design (a deleted
-- user's few rows stay too: a user re-created with that id is told of channels it never had,
-- which a client ignores).
CREATE TABLE group_channel_departures (
    user_id     text COLLATE "C" NOT NULL,
    channel_url text COLLATE "C" NOT NULL,
    departed_at bigint NOT NULL,
    PRIMARY KEY (user_id, channel_url)
);
CREATE INDEX group_channel_departures_idx ON group_channel_departures (user_id, departed_at, channel_url);

CREATE FUNCTION parley_member_departed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO group_channel_departures (user_id, channel_url, departed_at)
        VALUES (OLD.user_id, OLD.channel_url, parley_now_ms())
        ON CONFLICT (user_id, channel_url) DO UPDATE SET departed_at = EXCLUDED.departed_at;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_members_departed AFTER DELETE ON group_channel_members
    FOR EACH ROW EXECUTE FUNCTION parley_member_departed();

CREATE FUNCTION parley_member_returned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM group_channel_departures WHERE user_id = NEW.user_id AND channel_url = NEW.channel_url;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_members_returned AFTER INSERT ON group_channel_members
    FOR EACH ROW EXECUTE FUNCTION parley_member_returned();
