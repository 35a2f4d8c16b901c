-- Open channels (API.md §8): public rooms with participants instead of members.
--
-- Both kinds of channel share one URL namespace, `channels`, so that one `channel_url` names one
-- channel: the messages, dedup claims and files of either kind live in the same tables and
-- reference it (deleting a channel of either kind deletes its row here, which takes them along).

CREATE TABLE channels (
    channel_url  text COLLATE "C" PRIMARY KEY,
    channel_type text COLLATE "C" NOT NULL CHECK (channel_type IN ('group', 'open'))
);
INSERT INTO channels (channel_url, channel_type) SELECT channel_url, 'group' FROM group_channels;

-- A channel of either kind registers its URL when it is made (a URL the other kind holds is a
-- unique violation, 409/400202) and releases it when deleted.
CREATE FUNCTION parley_channel_registered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO channels (channel_url, channel_type) VALUES (NEW.channel_url, TG_ARGV[0]);
    RETURN NULL;
END $$;
CREATE FUNCTION parley_channel_released() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM channels WHERE channel_url = OLD.channel_url;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_registered AFTER INSERT ON group_channels
    FOR EACH ROW EXECUTE FUNCTION parley_channel_registered('group');
CREATE TRIGGER group_channel_released AFTER DELETE ON group_channels
    FOR EACH ROW EXECUTE FUNCTION parley_channel_released();

ALTER TABLE messages DROP CONSTRAINT messages_channel_url_fkey,
    ADD CONSTRAINT messages_channel_url_fkey FOREIGN KEY (channel_url) REFERENCES channels (channel_url) ON DELETE CASCADE,
    -- Which kind of channel the message is in, for its `channel_type`.
    ADD COLUMN channel_type text COLLATE "C" NOT NULL DEFAULT 'group' CHECK (channel_type IN ('group', 'open'));
ALTER TABLE message_dedup DROP CONSTRAINT message_dedup_channel_url_fkey,
    ADD CONSTRAINT message_dedup_channel_url_fkey FOREIGN KEY (channel_url) REFERENCES channels (channel_url) ON DELETE CASCADE;
ALTER TABLE files DROP CONSTRAINT files_channel_url_fkey,
    ADD CONSTRAINT files_channel_url_fkey FOREIGN KEY (channel_url) REFERENCES channels (channel_url) ON DELETE CASCADE;

-- Events name the kind of their channel (`channel_type` of the frame).
ALTER TABLE events ADD COLUMN channel_type text COLLATE "C" NOT NULL DEFAULT 'group';

CREATE TABLE open_channels (
    channel_url       text COLLATE "C" PRIMARY KEY,
    name              text    NOT NULL DEFAULT '',
    cover_url         text    NOT NULL DEFAULT '',
    custom_type       text    NOT NULL DEFAULT '',
    data              text    NOT NULL DEFAULT '',
    is_ephemeral      boolean NOT NULL DEFAULT false,
    is_frozen         boolean NOT NULL DEFAULT false,
    -- Always the number of rows in open_channel_participants for the channel: kept by the
    -- statements that add and remove them, under this row's lock, which also makes the cap exact.
    participant_count integer NOT NULL DEFAULT 0,
    -- Sends lock this row and take the next number, as in group channels.
    message_seq       bigint  NOT NULL DEFAULT 0,
    last_message_at   bigint,
    created_at        bigint  NOT NULL,
    created_by        text COLLATE "C"
);
-- The list (newest first) and its custom-type filter.
CREATE INDEX open_channels_created_idx ON open_channels (created_at DESC, channel_url DESC);
CREATE INDEX open_channels_custom_type_idx ON open_channels (custom_type, created_at DESC, channel_url DESC);

CREATE TRIGGER open_channel_registered AFTER INSERT ON open_channels
    FOR EACH ROW EXECUTE FUNCTION parley_channel_registered('open');
CREATE TRIGGER open_channel_released AFTER DELETE ON open_channels
    FOR EACH ROW EXECUTE FUNCTION parley_channel_released();

CREATE FUNCTION parley_open_channel_moderation_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM channel_bans WHERE channel_type = 'open' AND channel_url = OLD.channel_url;
    DELETE FROM channel_mutes WHERE channel_type = 'open' AND channel_url = OLD.channel_url;
    DELETE FROM send_rate_windows WHERE channel_type = 'open' AND channel_url = OLD.channel_url;
    RETURN NULL;
END $$;
CREATE TRIGGER open_channel_moderation_gone AFTER DELETE ON open_channels
    FOR EACH ROW EXECUTE FUNCTION parley_open_channel_moderation_gone();

-- Operators need not be participants (they moderate from outside too).
CREATE TABLE open_channel_operators (
    channel_url text COLLATE "C" NOT NULL REFERENCES open_channels (channel_url) ON DELETE CASCADE,
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    PRIMARY KEY (channel_url, user_id)
);

CREATE TABLE open_channel_metadata (
    channel_url text COLLATE "C" NOT NULL REFERENCES open_channels (channel_url) ON DELETE CASCADE,
    key         text NOT NULL,
    value       text NOT NULL,
    PRIMARY KEY (channel_url, key)
);

-- Who is in the room now (API.md §8.3). An enter over a socket holds while the user has a socket
-- open anywhere (`held_until` 0); an enter over REST also holds until `held_until` (2 minutes,
-- renewed by entering again). Every instance's heartbeat removes the participations nothing
-- holds any more, so a closed last socket or a dead instance ends them within 30 s.
CREATE TABLE open_channel_participants (
    channel_url text COLLATE "C" NOT NULL REFERENCES open_channels (channel_url) ON DELETE CASCADE,
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    entered_at  bigint NOT NULL,
    held_until  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (channel_url, user_id)
);
CREATE INDEX open_channel_participants_user_idx ON open_channel_participants (user_id, channel_url);

-- Participants receive their channel's events as joined members receive a group channel's: the
-- event hub's member cache follows the same version row (migration 0008), moved by every enter
-- and exit. The URL namespace is shared, so one version table serves both kinds.
CREATE TRIGGER open_channel_participants_added AFTER INSERT ON open_channel_participants
    REFERENCING NEW TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION parley_members_moved();
CREATE TRIGGER open_channel_participants_removed AFTER DELETE ON open_channel_participants
    REFERENCING OLD TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION parley_members_moved();

-- Who receives a channel's events, whatever its kind: joined and invited members of group
-- channels, and the participants of open channels (as joined members who see every message).
CREATE VIEW channel_recipients AS
    SELECT channel_url, user_id, state, ts_message_offset FROM group_channel_members
    UNION ALL
    SELECT channel_url, user_id, 'joined', 0 FROM open_channel_participants;
