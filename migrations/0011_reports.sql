-- Reports (API.md §7.4): what users report about messages, users and channels, and the review
-- queue. No foreign keys: a report outlives what it names; it keeps its own snapshot of the
-- reported message (edits and deletion do not change it) and of the channel's name.

CREATE TABLE reports (
    report_id          bigserial PRIMARY KEY,
    report_type        text NOT NULL CHECK (report_type IN ('message', 'user', 'channel')),
    report_category    text NOT NULL CHECK (report_category IN ('suspicious', 'harassing', 'inappropriate', 'spam')),
    reporting_user_id  text COLLATE "C" NOT NULL,
    offending_user_id  text COLLATE "C",
    channel_type       text COLLATE "C",
    channel_url        text COLLATE "C",
    channel_name       text,
    channel_custom_type text,
    message_id         bigint,
    -- The message as the reporter read it when reporting (JSON).
    reported_message   text,
    report_description text NOT NULL DEFAULT '',
    status             text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    resolution         text,
    -- Who last changed the status: a user, or 'admin'.
    resolved_by        text COLLATE "C",
    -- What was reported, as one key: the same reporter and key within 24 h is one report.
    target_key         text COLLATE "C" NOT NULL,
    created_at         bigint NOT NULL,
    updated_at         bigint NOT NULL
);
-- Duplicate folding and the per-reporter rate limit.
CREATE INDEX reports_reporter_idx ON reports (reporting_user_id, created_at);
CREATE INDEX reports_reporter_target_idx ON reports (reporting_user_id, target_key, created_at);
-- The review queue, newest first, and the lists per channel, message and user.
CREATE INDEX reports_status_idx ON reports (status, report_id);
CREATE INDEX reports_channel_idx ON reports (channel_type, channel_url, report_id);
CREATE INDEX reports_message_idx ON reports (message_id, report_id) WHERE message_id IS NOT NULL;
CREATE INDEX reports_offender_idx ON reports (offending_user_id, report_id);
