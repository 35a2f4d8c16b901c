-- Moderation (API.md §7): bans and mutes per channel, and the audit log of moderator actions.
--
-- Bans and mutes serve both channel kinds (`channel_type` group or open), so they reference no
-- channel table; a trigger removes a deleted group channel's rows. `end_at` is -1 for a
-- permanent one; whether one is in force is decided when it is read (`end_at = -1 OR end_at >
-- now`), never by a sweeper, so an expired row is simply ignored until it is replaced or lifted.

CREATE TABLE channel_bans (
    channel_type text COLLATE "C" NOT NULL CHECK (channel_type IN ('group', 'open')),
    channel_url  text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    start_at     bigint NOT NULL,
    end_at       bigint NOT NULL,
    description  text   NOT NULL DEFAULT '',
    -- Who banned: a user (an operator, or the agent the admin named), or NULL for the admin.
    agent_id     text COLLATE "C",
    PRIMARY KEY (channel_type, channel_url, user_id)
);
-- A user's bans over all channels (GET /v3/users/{user_id}/ban).
CREATE INDEX channel_bans_user_idx ON channel_bans (user_id, channel_type, channel_url);

CREATE TABLE channel_mutes (
    channel_type text COLLATE "C" NOT NULL CHECK (channel_type IN ('group', 'open')),
    channel_url  text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    start_at     bigint NOT NULL,
    end_at       bigint NOT NULL,
    description  text   NOT NULL DEFAULT '',
    agent_id     text COLLATE "C",
    PRIMARY KEY (channel_type, channel_url, user_id)
);
CREATE INDEX channel_mutes_user_idx ON channel_mutes (user_id, channel_type, channel_url);

CREATE FUNCTION parley_group_channel_moderation_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM channel_bans WHERE channel_type = 'group' AND channel_url = OLD.channel_url;
    DELETE FROM channel_mutes WHERE channel_type = 'group' AND channel_url = OLD.channel_url;
    RETURN NULL;
END $$;
CREATE TRIGGER group_channel_moderation_gone AFTER DELETE ON group_channels
    FOR EACH ROW EXECUTE FUNCTION parley_group_channel_moderation_gone();

-- One row per moderator action, written in the action's transaction; the API only reads it.
-- No foreign keys: the log outlives the users, channels and messages it names.
CREATE TABLE audit_logs (
    audit_id       bigserial PRIMARY KEY,
    action         text   NOT NULL,
    -- The acting user, or NULL for the admin (shown as "admin").
    actor_id       text COLLATE "C",
    target_user_id text COLLATE "C",
    channel_type   text COLLATE "C",
    channel_url    text COLLATE "C",
    message_id     bigint,
    -- A JSON object of the action's particulars (a ban's seconds, a resolution).
    details        text   NOT NULL DEFAULT '{}',
    created_at     bigint NOT NULL
);
CREATE INDEX audit_logs_created_idx ON audit_logs (created_at, audit_id);
CREATE INDEX audit_logs_actor_idx ON audit_logs (actor_id, audit_id);
CREATE INDEX audit_logs_target_idx ON audit_logs (target_user_id, audit_id);
CREATE INDEX audit_logs_channel_idx ON audit_logs (channel_url, audit_id);
