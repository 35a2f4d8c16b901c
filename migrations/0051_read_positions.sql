-- Read replicas (issue 51.3): where in the primary's WAL each caller's last write ended, so that
-- a read of theirs goes to a replica only once that replica has replayed it (read-your-writes),
-- on whichever instance the read arrives. `caller` is `user:<id>` for a session user, `app` for
-- the Api-Token's holder; `lsn` is `pg_current_wal_lsn() - '0/0'` right after the write's commit.
-- Written only when DATABASE_READ_URL is set.
--
-- UNLOGGED: a position is worth nothing after a crash or a failover (the replicas then follow a
-- new primary and are caught up or out of the rotation), and it costs no WAL, so no replica
-- traffic. Rows older than the replicas' lag bound are swept: every replica in the rotation has
-- replayed them.
CREATE UNLOGGED TABLE read_positions (
    caller text PRIMARY KEY,
    lsn bigint NOT NULL,
    written_at timestamptz NOT NULL DEFAULT now()
);
