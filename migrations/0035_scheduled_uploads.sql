-- Scheduled uploads (API.md §13.3): a scheduled FILE message may hold a file uploaded with it,
-- stored at once and linked to a message only when it is sent. The file sweeper keeps the files
-- of pending scheduled messages, found through this index.
CREATE INDEX scheduled_messages_file_idx ON scheduled_messages ((file ->> 'file_id'))
    WHERE status = 'pending' AND file ? 'file_id';
