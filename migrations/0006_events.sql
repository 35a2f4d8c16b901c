-- The realtime event stream (API.md §6).
--
-- Every change writes its events in its own transaction, so a change that commits always has
-- them and one that rolls back never does. `event_id` is taken while the transaction holds its
-- channels' event locks (see EventRepository), so within a channel ids increase in commit order;
-- across channels transactions may commit out of id order, which the readers allow for.

CREATE SEQUENCE event_ids;

CREATE TABLE events (
    event_id    bigint PRIMARY KEY,
    created_at  bigint NOT NULL,
    type        text   NOT NULL,
    channel_url text COLLATE "C",
    -- Who receives it, resolved when it is delivered: 0 the channel's joined members, 1 its
    -- joined and invited members, 2 only user_ids; user_ids receive it in every case.
    audience    smallint NOT NULL CHECK (audience IN (0, 1, 2)),
    user_ids    text[] NOT NULL DEFAULT '{}',
    -- The payload (domain values as JSON), rendered for each recipient on delivery.
    data        text   NOT NULL
);
-- Replay for one user: the events of their channels, and the events naming them.
CREATE INDEX events_channel_idx ON events (channel_url, event_id);
CREATE INDEX events_user_ids_idx ON events USING gin (user_ids);
-- Retention (24 h by default): ids and times grow together, so a BRIN index is enough.
CREATE INDEX events_created_at_idx ON events USING brin (created_at);

-- The highest event id removed by retention: a replay from before it must resync.
CREATE TABLE event_retention (
    only_row       boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    purged_through bigint  NOT NULL
);
INSERT INTO event_retention (only_row, purged_through) VALUES (true, 0);

-- Presence (API.md §6.5): every running instance, with its last heartbeat (the database's
-- clock, so that instances never compare their own), and the sockets open on it. An instance that
-- stops beating is removed by the others, and its sockets with it.
CREATE TABLE event_instances (
    instance_id  text PRIMARY KEY,
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- One row per open socket, so that the per-user socket cap holds across instances (the oldest
-- socket anywhere is the one closed).
CREATE TABLE event_sockets (
    socket_id    text PRIMARY KEY,
    user_id      text COLLATE "C" NOT NULL,
    instance_id  text NOT NULL REFERENCES event_instances (instance_id) ON DELETE CASCADE,
    connected_at bigint NOT NULL
);
CREATE INDEX event_sockets_user_idx ON event_sockets (user_id, connected_at);
CREATE INDEX event_sockets_instance_idx ON event_sockets (instance_id);
