-- The push queue (API.md §12.6): one row per new message that may push, written by the send's own
-- statement (so nothing committed goes unpushed and nothing rolled back is pushed), never one per
-- recipient: who receives it is decided when an instance claims the row. A claim is a lease
-- (`claimed_until`), as for webhook deliveries: a dead instance's claims fall due again.

CREATE TABLE push_queue (
    message_id bigint PRIMARY KEY REFERENCES messages (message_id) ON DELETE CASCADE,
    channel_url text COLLATE "C" NOT NULL,
    created_at bigint NOT NULL,
    next_attempt_at bigint NOT NULL,
    claimed_until bigint NOT NULL DEFAULT 0,
    attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX push_queue_due_idx ON push_queue (next_attempt_at, message_id);

-- A supergroup of 100 members or more pushes at most once per window (API.md §12.3).
CREATE TABLE push_windows (
    channel_url text COLLATE "C" PRIMARY KEY REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    last_push_at bigint NOT NULL
);
