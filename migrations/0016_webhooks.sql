-- Webhooks (API.md §10). One settings row; its secret signs deliveries (Standard Webhooks), and
-- after a rotation the previous one signs beside it until `previous_secret_until`.
CREATE TABLE webhook_settings (
    only_row              boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    enabled               boolean NOT NULL DEFAULT false,
    url                   text    NOT NULL DEFAULT '',
    enabled_events        text[]  NOT NULL DEFAULT '{}',
    include_members       boolean NOT NULL DEFAULT false,
    secret                text    NOT NULL,
    previous_secret       text,
    previous_secret_until bigint,
    updated_at            bigint  NOT NULL
);

-- The delivery queue: a row per (event, category) written in the event's transaction, so that
-- nothing committed goes unannounced and nothing rolled back is announced. Any instance claims
-- due rows (FOR UPDATE SKIP LOCKED) for a lease; an instance that dies mid-delivery leaves its
-- lease to expire, and another delivers (at least once). The event's data is copied: events are
-- purged after their retention, deliveries are retried for up to a day. `body` is rendered at
-- the first attempt and sent unchanged on every later one.
CREATE TABLE webhook_deliveries (
    delivery_id      bigserial PRIMARY KEY,
    webhook_id       text    NOT NULL UNIQUE DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', ''),
    event_id         bigint  NOT NULL,
    category         text    NOT NULL,
    event_type       text    NOT NULL,
    channel_url      text,
    channel_type     text    NOT NULL,
    event_data       text    NOT NULL,
    event_created_at bigint  NOT NULL,
    body             text,
    status           text    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         bigint  NOT NULL DEFAULT 0,
    next_attempt_at  bigint  NOT NULL,
    claimed_until    bigint,
    last_status_code bigint,
    last_error       text,
    created_at       bigint  NOT NULL,
    delivered_at     bigint
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_listing_idx ON webhook_deliveries (status, delivery_id);
