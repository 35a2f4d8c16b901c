-- Count preference (issue 52.1, Sendbird's `count_preference`): which of a member's unread
-- counts of a channel go into their totals (the user's unread message count, unread item
-- counts, `unread_count_changed`'s total, push badges): `all`, `unread_message_count_only`,
-- `unread_mentioned_count_only` or `off`. The channel's own counts stay as they are.
ALTER TABLE group_channel_members ADD COLUMN count_preference text NOT NULL DEFAULT 'all'
    CHECK (count_preference IN ('all', 'unread_message_count_only', 'unread_mentioned_count_only', 'off'));
