-- Listing polls (GET /v3/polls, API.md §13.4): a channel's, newest first, and for a session user
-- without a channel, the ones they made.
CREATE INDEX polls_channel_idx ON polls (channel_url, channel_type, poll_id) WHERE channel_url IS NOT NULL;
CREATE INDEX polls_creator_idx ON polls (created_by, poll_id) WHERE created_by IS NOT NULL;
