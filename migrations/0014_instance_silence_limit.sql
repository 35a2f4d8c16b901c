-- Each instance states how long it may go without a heartbeat before the others take it for
-- dead. The reapers used their own setting, so an instance configured for quick failover reaped
-- healthy instances beating at a slower (configured) pace, and their users went offline.
ALTER TABLE event_instances ADD COLUMN dead_after_ms bigint NOT NULL DEFAULT 20000 CHECK (dead_after_ms > 0);
