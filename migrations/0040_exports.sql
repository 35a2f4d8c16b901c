-- Data exports (API.md §14.2) read messages in `created_at` order a page at a time, over every
-- channel: without this index each page would read the whole table.
CREATE INDEX messages_created_idx ON messages (created_at, message_id);
