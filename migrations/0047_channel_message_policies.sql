-- A channel's own retention (API.md §14.3): `message_retention_hours` removes its messages
-- that much older than now; `message_survival_seconds` (disappearing messages) removes each
-- message that long after every joined member has read it. 0: off. Both are carried out by the
-- recurring `channel_retention` job, which finds the channels by these partial indexes.
ALTER TABLE group_channels
    ADD COLUMN message_retention_hours integer NOT NULL DEFAULT 0,
    ADD COLUMN message_survival_seconds integer NOT NULL DEFAULT 0;
CREATE INDEX group_channels_retention_idx ON group_channels (channel_url) WHERE message_retention_hours > 0;
CREATE INDEX group_channels_survival_idx ON group_channels (channel_url) WHERE message_survival_seconds > 0;
-- Open channels keep only the retention (nobody's reading is tracked in them).
ALTER TABLE open_channels ADD COLUMN message_retention_hours integer NOT NULL DEFAULT 0;
CREATE INDEX open_channels_retention_idx ON open_channels (channel_url) WHERE message_retention_hours > 0;

-- When the job first saw every joined member of a disappearing-messages channel read up to
-- `read_ts` (the lowest of their read positions): its messages up to then disappear
-- `message_survival_seconds` after `seen_at`. A run adds a mark when the lowest position moved.
CREATE TABLE channel_read_marks (
    channel_url text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    read_ts     bigint NOT NULL,
    seen_at     bigint NOT NULL,
    PRIMARY KEY (channel_url, read_ts)
);
