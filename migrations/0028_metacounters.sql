-- Channel metacounters (API.md §13.6): integer values by key. An increase or decrease is one
-- INSERT … ON CONFLICT DO UPDATE of the row (value = value + n), never a read and a write, so
-- concurrent changes lose nothing.
CREATE TABLE group_channel_metacounters (
    channel_url text COLLATE "C" NOT NULL REFERENCES group_channels (channel_url) ON DELETE CASCADE,
    key         text NOT NULL,
    value       bigint NOT NULL,
    PRIMARY KEY (channel_url, key)
);

CREATE TABLE open_channel_metacounters (
    channel_url text COLLATE "C" NOT NULL REFERENCES open_channels (channel_url) ON DELETE CASCADE,
    key         text NOT NULL,
    value       bigint NOT NULL,
    PRIMARY KEY (channel_url, key)
);
