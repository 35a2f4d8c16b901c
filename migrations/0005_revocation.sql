-- File auth keys carry the generation of their user's keys (issue 10.10). Revoking the user's
-- session tokens or deactivating them takes the next number, which ends every key issued
-- before; a user deleted and created again gets a number no key of the old account holds.
-- (An instant, as before, could not tell the old account's keys from the new one's.)
CREATE SEQUENCE file_key_generations;
ALTER TABLE users ADD COLUMN file_key_generation bigint NOT NULL DEFAULT nextval('file_key_generations');
ALTER TABLE users DROP COLUMN file_keys_valid_after;

-- Deactivating a user revokes their session tokens for good: the rows stay until they expire, so
-- that while the user is deactivated their tokens still answer 400300 (API.md §2.3), and after a
-- reactivation they answer 400302 instead of working again.
ALTER TABLE session_tokens ADD COLUMN revoked boolean NOT NULL DEFAULT false;
