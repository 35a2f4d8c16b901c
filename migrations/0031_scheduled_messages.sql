-- Scheduled messages (API.md §13.3): a message to send later, as its sender, through the same
-- send path and rules as a live send at that moment. Any instance claims a due one for a short
-- lease (as webhook deliveries); its send carries a dedup id of its own, so a claim that runs
-- out while its instance is still sending, or that instance's death after the send committed,
-- never sends it twice.
CREATE TABLE scheduled_messages (
    scheduled_message_id bigserial PRIMARY KEY,
    -- No reference to the channel: one deleted before the time makes the message fail, with the reason.
    channel_url          text COLLATE "C" NOT NULL,
    sender_id            text COLLATE "C" NOT NULL,
    message_type         text NOT NULL CHECK (message_type IN ('MESG', 'FILE')),
    message              text NOT NULL DEFAULT '',
    custom_type          text NOT NULL DEFAULT '',
    data                 text NOT NULL DEFAULT '',
    mention_type         text NOT NULL DEFAULT 'users',
    mentioned_user_ids   text[] NOT NULL DEFAULT '{}',
    sorted_metaarray     jsonb NOT NULL DEFAULT '[]',
    is_silent            boolean NOT NULL DEFAULT false,
    send_push            boolean NOT NULL DEFAULT true,
    file                 jsonb,
    target_langs         text[] NOT NULL DEFAULT '{}',
    parent_message_id    bigint,
    is_reply_to_channel  boolean NOT NULL DEFAULT false,
    scheduled_at         bigint NOT NULL,
    status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'canceled')),
    -- Why it failed: the refusal's code and message, as a live send would have had them.
    failure_code         integer,
    failure_reason       text,
    message_id           bigint,
    claimed_until        bigint,
    attempts             integer NOT NULL DEFAULT 0,
    created_at           bigint NOT NULL,
    updated_at           bigint NOT NULL
);
-- What is due, for every instance's poll.
CREATE INDEX scheduled_messages_due_idx ON scheduled_messages (scheduled_at) WHERE status = 'pending';
-- A channel's pending ones (the per-channel limit) and listings by channel or by sender.
CREATE INDEX scheduled_messages_channel_idx ON scheduled_messages (channel_url, status, scheduled_message_id);
CREATE INDEX scheduled_messages_sender_idx ON scheduled_messages (sender_id, status, scheduled_message_id);
