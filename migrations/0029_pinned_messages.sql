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
