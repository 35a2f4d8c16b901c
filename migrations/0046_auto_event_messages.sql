-- Auto event messages (API.md §14.7, Sendbird's /v3/applications/settings/auto_event_message):
-- which of a group channel's creation, joins, leaves and changes are also told in the channel by
-- an admin message, and with what text. '{}' is every one off with its default text.
ALTER TABLE application_settings ADD COLUMN auto_event_messages jsonb NOT NULL DEFAULT '{}';
