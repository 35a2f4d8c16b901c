-- Message moderation by channel custom type (API.md §14.7, Sendbird's
-- PUT /v3/applications/settings_global/{custom_type}): a domain filter and a profanity filter
-- (keywords, regular expressions) that block or mask what they match in user messages, and the
-- action taken on a user who keeps hitting the profanity filter. The custom type `*` holds the
-- application's own settings, which apply to every channel without settings of its type, and to
-- those whose settings say `should_check_global`.
CREATE TABLE message_filters (
    custom_type text COLLATE "C" PRIMARY KEY,
    settings    jsonb  NOT NULL,
    updated_at  bigint NOT NULL
);

-- A user's recent hits of the profanity filter in a channel, counted for the triggered
-- moderation; rows older than the longest window are removed as new ones come.
CREATE TABLE profanity_strikes (
    channel_url text COLLATE "C" NOT NULL,
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    at          bigint NOT NULL
);
CREATE INDEX profanity_strikes_idx ON profanity_strikes (user_id, channel_url, at);
