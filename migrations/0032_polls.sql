-- Polls (API.md §13.4): a poll is made on its own, then attached to a message sent with its
-- poll_id (which gives it its channel, unless it was made for one). Vote counts are kept on the
-- option and poll rows in the vote's transaction, under the poll row's lock, so concurrent votes
-- count exactly; poll_votes holds who voted for what.
CREATE TABLE polls (
    poll_id               bigserial PRIMARY KEY,
    title                 text NOT NULL,
    data                  text NOT NULL DEFAULT '',
    allow_user_suggestion boolean NOT NULL DEFAULT false,
    allow_multiple_votes  boolean NOT NULL DEFAULT false,
    -- NULL: open until closed by hand.
    close_at              bigint,
    is_closed             boolean NOT NULL DEFAULT false,
    created_by            text COLLATE "C",
    channel_url           text COLLATE "C",
    channel_type          text CHECK (channel_type IN ('group', 'open')),
    message_id            bigint UNIQUE REFERENCES messages (message_id) ON DELETE SET NULL,
    voter_count           integer NOT NULL DEFAULT 0,
    created_at            bigint NOT NULL,
    updated_at            bigint NOT NULL
);

CREATE TABLE poll_options (
    option_id   bigserial PRIMARY KEY,
    poll_id     bigint NOT NULL REFERENCES polls (poll_id) ON DELETE CASCADE,
    text        text NOT NULL,
    created_by  text COLLATE "C",
    vote_count  integer NOT NULL DEFAULT 0,
    created_at  bigint NOT NULL,
    updated_at  bigint NOT NULL
);
CREATE INDEX poll_options_poll_idx ON poll_options (poll_id, option_id);

CREATE TABLE poll_votes (
    option_id bigint NOT NULL REFERENCES poll_options (option_id) ON DELETE CASCADE,
    poll_id   bigint NOT NULL,
    user_id   text COLLATE "C" NOT NULL,
    voted_at  bigint NOT NULL,
    PRIMARY KEY (option_id, user_id)
);
-- A voter's current votes in a poll (each vote replaces them).
CREATE INDEX poll_votes_voter_idx ON poll_votes (poll_id, user_id);

ALTER TABLE messages ADD COLUMN poll_id bigint;
