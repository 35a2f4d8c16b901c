-- Users, their metadata, session tokens and channel-invitation preferences (API.md §2).
-- Identifiers use the "C" collation: byte order is what keyset pagination compares, and it is
-- the same on every server whatever its locale.

CREATE TABLE users (
    user_id      text COLLATE "C" PRIMARY KEY,
    nickname     text    NOT NULL,
    profile_url  text    NOT NULL DEFAULT '',
    is_active    boolean NOT NULL DEFAULT true,
    last_seen_at bigint  NOT NULL DEFAULT 0,
    created_at   bigint  NOT NULL
);

CREATE TABLE user_metadata (
    user_id text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    key     text NOT NULL,
    value   text NOT NULL,
    PRIMARY KEY (user_id, key)
);

-- A token is selector ‖ secret: the selector finds the row, the secret is kept only as its
-- SHA-256 and compared in constant time.
CREATE TABLE session_tokens (
    selector    text COLLATE "C" PRIMARY KEY,
    user_id     text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    secret_hash bytea  NOT NULL,
    expires_at  bigint NOT NULL,
    created_at  bigint NOT NULL
);
CREATE INDEX session_tokens_user_id_idx ON session_tokens (user_id);

CREATE TABLE channel_invitation_preferences (
    user_id     text COLLATE "C" PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
    auto_accept boolean NOT NULL
);
