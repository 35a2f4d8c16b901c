-- Requests per client address (issue 37): failed authentications and uploads, counted here so
-- that every instance enforces one limit. The generic cell rate algorithm keeps one number per
-- address and kind, `tat` (the theoretical arrival time, ms): a request is admitted while it
-- would not push `tat` more than the burst ahead of now. UNLOGGED as `send_rate_windows`: a limit
-- need not survive a crash and should cost no WAL. Rows whose `tat` passed say nothing and are
-- swept by the recurring `address_limit_sweep` job, by the index.
CREATE UNLOGGED TABLE address_limits (
    kind    text COLLATE "C" NOT NULL CHECK (kind IN ('auth_failure', 'upload')),
    address text COLLATE "C" NOT NULL,
    tat     bigint NOT NULL,
    PRIMARY KEY (kind, address)
);
CREATE INDEX address_limits_tat_idx ON address_limits (tat);
