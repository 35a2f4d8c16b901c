-- Threads (API.md §13.1). A reply names its parent (a message of the same channel that is not
-- itself a reply); with is_reply_to_channel it is also part of the channel's main history.
ALTER TABLE messages
    ADD COLUMN parent_message_id bigint,
    ADD COLUMN is_reply_to_channel boolean NOT NULL DEFAULT false,
    -- A parent's thread_info, kept exactly in each reply's (and each reply deletion's)
    -- transaction under the parent's row lock: the replies that are not removed, the newest of
    -- them, the last change, and the ten users with the most of them (user objects as shown).
    ADD COLUMN reply_count integer NOT NULL DEFAULT 0,
    ADD COLUMN last_replied_at bigint NOT NULL DEFAULT 0,
    ADD COLUMN thread_updated_at bigint NOT NULL DEFAULT 0,
    ADD COLUMN most_replies jsonb;

-- A thread's replies in order: its listing, and the newest remaining reply after a deletion.
-- Partial: a message that is no reply costs this index nothing.
CREATE INDEX messages_thread_idx ON messages (parent_message_id, created_at, message_id) WHERE parent_message_id IS NOT NULL;

-- Who replied in a thread and how often (replies not removed), for most_replies.
CREATE TABLE thread_repliers (
    parent_message_id bigint NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    user_id           text COLLATE "C" NOT NULL,
    replies           integer NOT NULL,
    last_replied_at   bigint NOT NULL,
    PRIMARY KEY (parent_message_id, user_id)
);
