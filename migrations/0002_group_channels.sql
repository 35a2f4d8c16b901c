-- Group channels, their members and operators, and channel metadata (API.md §3).

CREATE TABLE group_channels (
    channel_url             text COLLATE "C" PRIMARY KEY,
    name                    text    NOT NULL DEFAULT '',
    cover_url               text    NOT NULL DEFAULT '',
    custom_type             text    NOT NULL DEFAULT '',
    data                    text    NOT NULL DEFAULT '',
    is_distinct             boolean NOT NULL DEFAULT false,
    is_public               boolean NOT NULL DEFAULT false,
    is_super                boolean NOT NULL DEFAULT false,
    is_ephemeral            boolean NOT NULL DEFAULT false,
    -- SHA-256 (hex) of the access code; NULL when the channel has none.
    access_code_hash        text,
    is_frozen               boolean NOT NULL DEFAULT false,
    member_count            integer NOT NULL DEFAULT 0,
    joined_member_count     integer NOT NULL DEFAULT 0,
    created_at              bigint  NOT NULL,
    created_by              text COLLATE "C",
    -- SHA-256 of the sorted member ids while the channel is distinct: the unique index makes
    -- concurrent creates of the same distinct channel yield one channel.
    distinct_key            text COLLATE "C" UNIQUE,
    -- When the newest message was sent (NULL: none yet); activity_at is that or created_at,
    -- the latest_last_message sort key.
    last_message_at         bigint,
    activity_at             bigint  NOT NULL,
    name_sort_key           text COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX group_channels_created_idx ON group_channels (created_at DESC, channel_url DESC);
CREATE INDEX group_channels_activity_idx ON group_channels (activity_at DESC, channel_url DESC);
CREATE INDEX group_channels_name_idx ON group_channels (name_sort_key, channel_url);

-- One row per member (joined or invited). The channel's sort keys are copied here so that a
-- user's channel list reads one index range in each order, however many channels they are in.
CREATE TABLE group_channel_members (
    channel_url             text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    user_id                 text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    state                   text    NOT NULL CHECK (state IN ('joined', 'invited')),
    is_operator             boolean NOT NULL DEFAULT false,
    invited_at              bigint  NOT NULL DEFAULT 0,
    joined_at               bigint  NOT NULL DEFAULT 0,
    inviter_id              text COLLATE "C",
    -- 0 unhidden, 1 hidden (auto-unhide allowed), 2 archived (hidden, no auto-unhide)
    hidden_state            smallint NOT NULL DEFAULT 0,
    -- Messages sent before this are hidden from this member (hide_previous_messages).
    messages_hidden_before  bigint  NOT NULL DEFAULT 0,
    -- Messages sent before this are not shown to this member (reset history, chat history off).
    ts_message_offset       bigint  NOT NULL DEFAULT 0,
    channel_created_at      bigint  NOT NULL,
    activity_at             bigint  NOT NULL,
    name_sort_key           text COLLATE "C" NOT NULL DEFAULT '',
    PRIMARY KEY (channel_url, user_id)
);
CREATE INDEX group_channel_members_activity_idx
    ON group_channel_members (user_id, activity_at DESC, channel_url DESC);
CREATE INDEX group_channel_members_created_idx
    ON group_channel_members (user_id, channel_created_at DESC, channel_url DESC);
CREATE INDEX group_channel_members_name_idx
    ON group_channel_members (user_id, name_sort_key, channel_url);

CREATE TABLE group_channel_metadata (
    channel_url text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    key         text NOT NULL,
    value       text NOT NULL,
    PRIMARY KEY (channel_url, key)
);
CREATE INDEX group_channel_metadata_key_value_idx ON group_channel_metadata (key, value, channel_url);
