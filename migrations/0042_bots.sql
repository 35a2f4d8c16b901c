-- Bots (API.md §14.8, Sendbird's bot interface): a bot is a user (deleting the user deletes the
-- bot) with a callback URL. Every message posted in a group channel the bot has joined is queued
-- for it in the message's transaction, as a row of the webhook delivery queue that names the bot
-- (`bot_user_id`; NULL is the application's webhook), and the webhook dispatcher delivers it,
-- signed, at least once, with the same leases, retries and log.
CREATE TABLE bots (
    user_id            text COLLATE "C" PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
    bot_type           text    NOT NULL,
    callback_url       text    NOT NULL,
    -- Forward only messages that start with '/' or mention the bot.
    is_privacy_mode    boolean NOT NULL,
    enable_mark_as_read boolean NOT NULL DEFAULT true,
    show_member        boolean NOT NULL DEFAULT false,
    -- The signing secret of its deliveries (`webhook-signature`), a Standard Webhooks secret.
    token              text    NOT NULL,
    created_at         bigint  NOT NULL
);

ALTER TABLE webhook_deliveries ADD COLUMN bot_user_id text COLLATE "C";
-- A deleted bot's deliveries are dropped with it (the listing shows them until then).
CREATE INDEX webhook_deliveries_bot_idx ON webhook_deliveries (bot_user_id) WHERE bot_user_id IS NOT NULL;
