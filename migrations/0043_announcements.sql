-- Announcements (API.md §14.4, Sendbird's /v3/announcements): a message the admin sends to many
-- channels or users, scheduled, sent in batches by a leased job (`jobs`, kind "announcement")
-- through the ordinary send path. Where the sending stands is the announcement's own
-- (`next_target`), so that a paused announcement resumes with a new job where the last stopped.
CREATE TABLE announcements (
    unique_id            text COLLATE "C" PRIMARY KEY,
    announcement_group   text COLLATE "C" NOT NULL DEFAULT '',
    message_type         text    NOT NULL CHECK (message_type IN ('MESG', 'ADMM')),
    sender_id            text COLLATE "C" NOT NULL,
    content              text    NOT NULL,
    custom_type          text    NOT NULL DEFAULT '',
    data                 text    NOT NULL DEFAULT '',
    target_at            text    NOT NULL,
    target_list          text[]  NOT NULL,
    target_channel_type  text    NOT NULL,
    create_channel       boolean NOT NULL,
    -- name, cover_url, custom_type, data, distinct of the channels it creates.
    channel_options      jsonb   NOT NULL,
    enable_push          boolean NOT NULL,
    scheduled_at         bigint  NOT NULL,
    -- Unfinished by then: stopped. 0: no end.
    end_at               bigint  NOT NULL DEFAULT 0,
    -- A daily pause (UTC "HHMM" to "HHMM"), or NULL.
    cease_at             text,
    resume_at            text,
    status               text    NOT NULL
        CHECK (status IN ('scheduled', 'running', 'paused', 'canceled', 'stopped', 'completed')),
    -- The index into the targets of the next one to send to (channels of sender_all_channels: the
    -- last channel URL sent to, in `next_channel`).
    next_target          integer NOT NULL DEFAULT 0,
    next_channel         text COLLATE "C" NOT NULL DEFAULT '',
    target_user_count    integer NOT NULL DEFAULT 0,
    target_channel_count integer NOT NULL DEFAULT 0,
    sent_user_count      integer NOT NULL DEFAULT 0,
    sent_channel_count   integer NOT NULL DEFAULT 0,
    created_at           bigint  NOT NULL,
    completed_at         bigint
);
CREATE INDEX announcements_created_idx ON announcements (created_at DESC, unique_id DESC);
CREATE INDEX announcements_scheduled_idx ON announcements (scheduled_at DESC, unique_id DESC);
CREATE INDEX announcements_group_idx ON announcements (announcement_group, created_at DESC);

-- Who was sent an announcement, in which channel: a user opened it once their read position in
-- that channel passed the message (`opened_at`: the read first seen there, recorded when the
-- open figures are asked for).
CREATE TABLE announcement_recipients (
    unique_id   text COLLATE "C" NOT NULL REFERENCES announcements (unique_id) ON DELETE CASCADE,
    channel_url text COLLATE "C" NOT NULL,
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    message_id  bigint NOT NULL,
    sent_at     bigint NOT NULL,
    opened_at   bigint,
    PRIMARY KEY (unique_id, channel_url, user_id)
);
CREATE INDEX announcement_recipients_user_idx ON announcement_recipients (user_id);
