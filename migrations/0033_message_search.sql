-- Message search (API.md §13.5), in any language, with PostgreSQL's full-text search. Words are
-- stemmed as English ("running" finds "run"); Chinese, Japanese and Korean text has no spaces
-- between words, so each of its characters is spaced out into a token of its own; a query's CJK
-- run asks the index for all its characters and the text for the run itself (SearchRepository):
-- any substring is found, a two-syllable Korean word in the middle of a sentence too. The index is on the message's current text, so
-- an edit is found by its new text in its own transaction, and a deletion (which empties the
-- text) is never found. Texts up to 20,000 bytes are indexed, every message of the default
-- length limit (5,000 characters): a server that allows longer ones does not make every send of
-- a quarter-megabyte text pay for indexing it (seen in the tests: the sends of such texts slowed
-- every other request of the database).
CREATE FUNCTION parley_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT regexp_replace($1,
        '([\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f])', ' \1 ', 'g')
$$;

CREATE INDEX messages_search_idx ON messages USING gin (to_tsvector('english'::regconfig, parley_search_text(message)))
    WHERE octet_length(message) <= 20000;
