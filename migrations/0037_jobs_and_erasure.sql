-- Background jobs (API.md §14): GDPR requests first, exports and retention after them. Any
-- instance claims a due job with a lease (`claim_token` fences an instance whose lease ran out);
-- a job's work is done in batches, each batch in a transaction that also saves `progress`, so
-- an instance that dies midway is followed by another that goes on from the last saved batch.
CREATE TABLE jobs (
    job_id        text COLLATE "C" PRIMARY KEY,
    kind          text NOT NULL,
    params        jsonb NOT NULL,
    status        text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'processing', 'done', 'failed', 'canceled')),
    progress      jsonb NOT NULL DEFAULT '{}',
    result        jsonb,
    error         text,
    attempts      integer NOT NULL DEFAULT 0,
    claim_token   text,
    claimed_until bigint NOT NULL DEFAULT 0,
    created_at    bigint NOT NULL,
    updated_at    bigint NOT NULL,
    finished_at   bigint
);
CREATE INDEX jobs_due_idx ON jobs (claimed_until, created_at) WHERE status IN ('scheduled', 'processing');
CREATE INDEX jobs_listing_idx ON jobs (kind, created_at DESC, job_id DESC);

-- A GDPR erasure finds the user's messages by sender, in batches.
CREATE INDEX messages_sender_idx ON messages (sender_id, message_id) WHERE sender_id IS NOT NULL;

-- A stored payload (an event's, a webhook delivery's, a reported message) with an erased user
-- taken out: every JSON object whose "userID" is the user gets its "nickname" and "profileURL"
-- emptied; the user leaves every "userIDs" list (a reaction only they had goes); and every other
-- string that is the user's id becomes the request's pseudonym.
CREATE FUNCTION parley_redact_user(doc jsonb, erased text, pseudonym text) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(doc)
        WHEN 'object' THEN (
            SELECT COALESCE(jsonb_object_agg(key, CASE
                WHEN doc ->> 'userID' = erased AND key IN ('nickname', 'profileURL') THEN '""'::jsonb
                WHEN key = 'userIDs' AND jsonb_typeof(value) = 'array' THEN value - erased
                ELSE parley_redact_user(value, erased, pseudonym) END), '{}'::jsonb)
            FROM jsonb_each(doc))
        WHEN 'array' THEN (
            SELECT COALESCE(jsonb_agg(parley_redact_user(value, erased, pseudonym) ORDER BY position), '[]'::jsonb)
            FROM jsonb_array_elements(doc) WITH ORDINALITY AS element(value, position)
            WHERE value -> 'userIDs' IS DISTINCT FROM jsonb_build_array(erased))
        WHEN 'string' THEN CASE WHEN doc #>> '{}' = erased THEN to_jsonb(pseudonym) ELSE doc END
        ELSE doc END
$$;
