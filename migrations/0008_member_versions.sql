-- Each instance's event hub keeps the members of the channels it delivers to in memory: without
-- it, a message to a channel of a thousand members read a thousand membership rows on every
-- instance, per message. A channel's member version moves in the transaction of every change to
-- who is in it and from when on they see messages, whichever statement makes it (triggers, as
-- for changed_at in 0007), so a hub checks one row per channel to know its copy is current.
--
-- Versions come from one sequence, never from a per-channel counter: a channel deleted and made
-- again under the same URL gets a version no hub has seen. No foreign key: the cascade that
-- deletes a channel's members fires these triggers after the channel row is gone. A deleted
-- channel's row stays (one small row; a hub finds no members for it anyway).

CREATE SEQUENCE group_channel_member_version_seq;

CREATE TABLE group_channel_member_versions (
    channel_url text COLLATE "C" PRIMARY KEY,
    version     bigint NOT NULL
);

INSERT INTO group_channel_member_versions (channel_url, version)
    SELECT channel_url, nextval('group_channel_member_version_seq') FROM (SELECT DISTINCT channel_url FROM group_channel_members) c;

-- Joins, invitations and departures: once per statement, for the channels it touched.
CREATE FUNCTION parley_members_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO group_channel_member_versions (channel_url, version)
        SELECT channel_url, nextval('group_channel_member_version_seq') FROM (SELECT DISTINCT channel_url FROM moved) c
        ON CONFLICT (channel_url) DO UPDATE SET version = EXCLUDED.version;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_members_added AFTER INSERT ON group_channel_members
    REFERENCING NEW TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION parley_members_moved();
CREATE TRIGGER group_channel_members_removed AFTER DELETE ON group_channel_members
    REFERENCING OLD TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION parley_members_moved();

-- A member's state or history offset: per row, and only when one of them really changed, because
-- every message and receipt updates member rows too (activity, read positions).
CREATE FUNCTION parley_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO group_channel_member_versions (channel_url, version)
        VALUES (NEW.channel_url, nextval('group_channel_member_version_seq'))
        ON CONFLICT (channel_url) DO UPDATE SET version = EXCLUDED.version;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_member_changed AFTER UPDATE OF state, ts_message_offset ON group_channel_members
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.ts_message_offset IS DISTINCT FROM NEW.ts_message_offset)
    EXECUTE FUNCTION parley_member_changed();
