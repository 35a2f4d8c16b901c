-- Device tokens for push notifications (API.md §12.1).
--
-- A token has one owner: registering it for another user moves it (the device changed hands).
-- A Web Push subscription is keyed by its endpoint URL and keeps the browser's keys. A user keeps
-- at most the 20 newest tokens of each type (Sendbird's rule), so rows are found by user and
-- type in order of registration.

CREATE TABLE push_tokens (
    token_type text COLLATE "C" NOT NULL CHECK (token_type IN ('gcm', 'apns', 'huawei', 'web')),
    token text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    -- Web Push only: the subscription's `keys.p256dh` and `keys.auth` (base64url).
    web_p256dh text,
    web_auth text,
    created_at bigint NOT NULL,
    PRIMARY KEY (token_type, token),
    CHECK ((token_type = 'web') = (web_p256dh IS NOT NULL AND web_auth IS NOT NULL))
);
CREATE INDEX push_tokens_user_idx ON push_tokens (user_id, token_type, created_at, token);
