-- Translations of a message's text (API.md §9), by language code: stored once per language, so
-- that a second request for it never reaches the provider, and read with the message (no join
-- on the history path). NULL when there are none; an edit of the text drops them.
ALTER TABLE messages ADD COLUMN translations jsonb;
