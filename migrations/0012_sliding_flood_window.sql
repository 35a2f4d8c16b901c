-- Flood protection (API.md §7.6) becomes a sliding window: for each user and channel, the times
-- of their latest accepted sends (at most the limit of them). A send is accepted while fewer
-- than the limit fall in the second before it, so no one-second span, wherever it starts, holds
-- more than the limit. Calendar-second counters let twice the limit through a second boundary.
-- UNLOGGED as before: a rate window need not survive a crash and should cost no WAL.
DROP TABLE send_rate_windows;
CREATE UNLOGGED TABLE send_rate_windows (
    channel_type text COLLATE "C" NOT NULL CHECK (channel_type IN ('group', 'open')),
    channel_url  text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL,
    recent       bigint[] NOT NULL,
    PRIMARY KEY (channel_type, channel_url, user_id)
);
