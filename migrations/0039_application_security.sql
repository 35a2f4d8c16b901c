-- Secondary API tokens and the IP allow-list of API tokens (API.md §14.7). A token is kept as
-- its public selector and the SHA-256 of its secret, never in clear; revoking deletes the row,
-- and every instance looks a secondary token up on each request, so a revoked one stops at once.
CREATE TABLE api_tokens (
    selector    text COLLATE "C" PRIMARY KEY,
    secret_hash bytea  NOT NULL,
    created_at  bigint NOT NULL
);

-- Addresses and CIDR ranges API tokens may be used from; none: from anywhere.
CREATE TABLE api_allowlist (
    network    text COLLATE "C" PRIMARY KEY,
    created_at bigint NOT NULL
);
