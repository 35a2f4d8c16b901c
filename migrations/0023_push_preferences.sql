-- Push preferences (API.md §12.2): a user's (one row, absent until first changed: the defaults
-- apply), and a member's per channel (on the membership, so the channel list shows it).

CREATE TABLE push_preferences (
    user_id text COLLATE "C" PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
    push_trigger_option text NOT NULL DEFAULT 'all' CHECK (push_trigger_option IN ('all', 'mention_only', 'off')),
    do_not_disturb boolean NOT NULL DEFAULT false,
    start_hour smallint NOT NULL DEFAULT 0 CHECK (start_hour BETWEEN 0 AND 23),
    start_min smallint NOT NULL DEFAULT 0 CHECK (start_min BETWEEN 0 AND 59),
    end_hour smallint NOT NULL DEFAULT 0 CHECK (end_hour BETWEEN 0 AND 23),
    end_min smallint NOT NULL DEFAULT 0 CHECK (end_min BETWEEN 0 AND 59),
    timezone text NOT NULL DEFAULT 'UTC',
    snooze_enabled boolean NOT NULL DEFAULT false,
    snooze_start_ts bigint NOT NULL DEFAULT 0,
    snooze_end_ts bigint NOT NULL DEFAULT 0,
    push_sound text NOT NULL DEFAULT '',
    alternative_push_sound text NOT NULL DEFAULT '',
    enable_push_for_replies boolean NOT NULL DEFAULT true,
    template text NOT NULL DEFAULT 'default' CHECK (template IN ('default', 'alternative'))
);

ALTER TABLE group_channel_members
    ADD COLUMN push_trigger_option text NOT NULL DEFAULT 'default'
        CHECK (push_trigger_option IN ('default', 'all', 'mention_only', 'off')),
    ADD COLUMN push_sound text NOT NULL DEFAULT '';
