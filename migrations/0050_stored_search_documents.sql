-- Message search at a bounded cost (issue 50.1). The index of migration 0033 was on an
-- expression, so ranking by score computed each hit's tsvector anew (about 1 ms for 5,000
-- characters: 20,000 hits took 18.7 s). The document is now stored with the message, written
-- by a trigger whenever the text is (a send, an edit, a removal that empties it), and the index
-- is on the stored column: ranking reads what is stored, and the planner has the column's
-- statistics (how common each word is) to choose between the index and a channel's history.
-- Texts over 20,000 bytes stay unindexed, as before (NULL: found by no search).
CREATE FUNCTION parley_search_document(message text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN octet_length(message) <= 20000 AND message <> ''
        THEN to_tsvector('english'::regconfig, parley_search_text(message)) END
$$;

CREATE FUNCTION parley_set_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_document := parley_search_document(NEW.message);
    RETURN NEW;
END
$$;

ALTER TABLE messages ADD COLUMN search_document tsvector;
-- Existing messages: one pass over the table (on a large installation this migration takes a
-- while; the old index serves until it commits).
UPDATE messages SET search_document = parley_search_document(message) WHERE octet_length(message) <= 20000 AND message <> '';

CREATE TRIGGER messages_search_document BEFORE INSERT OR UPDATE OF message ON messages
    FOR EACH ROW EXECUTE FUNCTION parley_set_search_document();

CREATE INDEX messages_search_document_idx ON messages USING gin (search_document);
DROP INDEX messages_search_idx;
