-- Uploaded files (API.md §5).
--
-- The bytes live encrypted on disk, named by `file_id`; the message's `file` column holds what a
-- message shows (name, type, size, thumbnails), and `files` says which channel and message a
-- stored file belongs to, so that a download checks membership with one row and deleting a
-- message or a channel finds its files. A stored file with no row here is an orphan the
-- sweeper removes.

ALTER TABLE messages ADD COLUMN file jsonb;

CREATE TABLE files (
    file_id     text COLLATE "C" PRIMARY KEY,
    channel_url text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    -- NULL for a file sent to an ephemeral channel, whose messages are not stored.
    message_id  bigint REFERENCES messages (message_id) ON DELETE CASCADE,
    -- The attachment as the message shows it (name, type, size, thumbnails), for downloads.
    file        jsonb NOT NULL,
    created_at  bigint NOT NULL
);
CREATE INDEX files_channel_idx ON files (channel_url);
CREATE INDEX files_message_idx ON files (message_id);

-- File auth keys are signed, not stored; revoking a user's session tokens moves this instant
-- forward, and keys issued before it stop working.
ALTER TABLE users ADD COLUMN file_keys_valid_after bigint NOT NULL DEFAULT 0;
