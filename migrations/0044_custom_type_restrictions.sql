-- Bans and mutes by channel custom type (API.md §14.7, Sendbird's
-- /v3/applications/settings_by_channel_custom_type/{custom_type}/ban|mute): a user banned or
-- muted for a custom type is so in every channel of that type, group or open, present and future.
-- Read beside a channel's own bans and mutes (`ModerationRepository`), never copied into them.
CREATE TABLE custom_type_restrictions (
    kind        text COLLATE "C" NOT NULL CHECK (kind IN ('ban', 'mute')),
    custom_type text COLLATE "C" NOT NULL CHECK (custom_type <> ''),
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    start_at    bigint NOT NULL,
    -- -1: until lifted.
    end_at      bigint NOT NULL,
    description text   NOT NULL DEFAULT '',
    -- Every read of a channel's restrictions probes (kind, user, type); the lists go by type.
    PRIMARY KEY (kind, user_id, custom_type)
);
CREATE INDEX custom_type_restrictions_listing_idx ON custom_type_restrictions (kind, custom_type, user_id);
