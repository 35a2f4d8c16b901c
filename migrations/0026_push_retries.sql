-- Pushes to retry (API.md §12.6): one row per device whose provider asked for another try (a
-- timeout, 429 or 5xx), so the devices that got the push do not get it twice. Claimed with a
-- lease like the queue; dropped with it at the 10-minute limit (`created_at` is the message's).

CREATE TABLE push_retries (
    message_id bigint NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    token_type text COLLATE "C" NOT NULL,
    token text COLLATE "C" NOT NULL,
    created_at bigint NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at bigint NOT NULL,
    claimed_until bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, token_type, token)
);
CREATE INDEX push_retries_due_idx ON push_retries (next_attempt_at);
