-- Messages of group channels (API.md §4).
--
-- Sends to one channel are serialised on its row, which hands out `seq` (1, 2, 3, … per
-- channel): message ids and timestamps then increase in send order within a channel, and a
-- member's unread count is a subtraction of sequence numbers, never a scan of the history.

ALTER TABLE group_channels
    ADD COLUMN message_seq bigint NOT NULL DEFAULT 0,
    -- Counts only the messages that count as unread (not silent): unread = counted_seq - read_seq
    -- minus the removed counted messages after read_seq.
    ADD COLUMN counted_seq bigint NOT NULL DEFAULT 0;

ALTER TABLE group_channel_members
    -- The channel's counted_seq this member has read up to, and when.
    ADD COLUMN read_seq bigint NOT NULL DEFAULT 0,
    ADD COLUMN read_ts bigint NOT NULL DEFAULT 0,
    ADD COLUMN delivered_ts bigint NOT NULL DEFAULT 0,
    -- Unread messages that mention this member, kept up to date in the send transaction.
    ADD COLUMN unread_mentions integer NOT NULL DEFAULT 0;

CREATE SEQUENCE message_ids;

CREATE TABLE messages (
    message_id          bigint PRIMARY KEY,
    channel_url         text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    seq                 bigint  NOT NULL,
    counted_seq         bigint  NOT NULL,
    message_type        text    NOT NULL CHECK (message_type IN ('MESG', 'FILE', 'ADMM')),
    -- The sender as they were when sending: their messages outlive them (API.md §2.2).
    sender_id           text COLLATE "C",
    sender_nickname     text    NOT NULL DEFAULT '',
    sender_profile_url  text    NOT NULL DEFAULT '',
    message             text    NOT NULL DEFAULT '',
    custom_type         text    NOT NULL DEFAULT '',
    data                text    NOT NULL DEFAULT '',
    mention_type        text    NOT NULL DEFAULT 'users' CHECK (mention_type IN ('users', 'channel')),
    mentioned_user_ids  text[]  NOT NULL DEFAULT '{}',
    sorted_metaarray    jsonb   NOT NULL DEFAULT '[]',
    is_silent           boolean NOT NULL DEFAULT false,
    is_op_msg           boolean NOT NULL DEFAULT false,
    dedup_id            text,
    created_at          bigint  NOT NULL,
    updated_at          bigint  NOT NULL DEFAULT 0,
    is_removed          boolean NOT NULL DEFAULT false,
    UNIQUE (channel_url, seq)
);
-- History windows: keyset on (created_at, message_id) within a channel.
CREATE INDEX messages_history_idx ON messages (channel_url, created_at, message_id);
-- Removed messages that had counted as unread, for the one correction unread counts need.
CREATE INDEX messages_removed_counted_idx ON messages (channel_url, counted_seq) WHERE is_removed AND NOT is_silent;

-- Retry-safe sends: one message per channel, sender and dedup_id within 24 hours.
CREATE TABLE message_dedup (
    channel_url text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    sender_id   text COLLATE "C" NOT NULL,
    dedup_id    text NOT NULL,
    message_id  bigint,
    created_at  bigint NOT NULL,
    PRIMARY KEY (channel_url, sender_id, dedup_id)
);

-- Flood protection (API.md §4.2): sends per user and channel in the current one-second window.
-- Every instance sees the same counter; UNLOGGED because a rate window need not survive a crash
-- and should cost no WAL.
CREATE UNLOGGED TABLE send_rate_windows (
    channel_url text COLLATE "C" NOT NULL,
    user_id     text COLLATE "C" NOT NULL,
    window_start bigint  NOT NULL,
    sends        integer NOT NULL,
    PRIMARY KEY (channel_url, user_id)
);

-- Reactions (API.md §4.6): one row per message, reaction and user.
CREATE TABLE message_reactions (
    message_id bigint NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    reaction   text NOT NULL,
    user_id    text COLLATE "C" NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (message_id, reaction, user_id)
);
