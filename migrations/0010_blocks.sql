-- Blocks (API.md §7.3, ../reference/block-unblock.txt).
--
-- In a 1-to-1 channel a message from a user the other member blocks is stored with
-- `hidden_from` = that member: it is theirs never to see (history, last message, unread counts,
-- events), even after an unblock, while its sender sees it as sent. Such a message takes no
-- unread sequence number (`counted_seq` does not move): the only member it could count for is
-- the blocker, so unread counts stay a subtraction. In channels with more members nothing is
-- hidden; readers are told `is_blocked_by_me` instead.

CREATE TABLE user_blocks (
    blocker_id text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    blocked_id text COLLATE "C" NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
);
-- Who blocks a sender (the send path and the event hub ask).
CREATE INDEX user_blocks_blocked_idx ON user_blocks (blocked_id, blocker_id);

ALTER TABLE messages ADD COLUMN hidden_from text COLLATE "C";

-- A channel is 1-to-1 while it has two members and never had more ("the block mode is only
-- maintained with the original members").
ALTER TABLE group_channels ADD COLUMN peak_member_count integer NOT NULL DEFAULT 0;
UPDATE group_channels SET peak_member_count = member_count;

CREATE FUNCTION parley_group_channel_peak_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.peak_member_count := GREATEST(NEW.peak_member_count, NEW.member_count);
    RETURN NEW;
END $$;
CREATE TRIGGER group_channel_peak_members BEFORE INSERT OR UPDATE OF member_count ON group_channels
    FOR EACH ROW EXECUTE FUNCTION parley_group_channel_peak_members();

-- An event about a hidden message (its edits, deletion, reactions) is not delivered to the
-- member it is hidden from, whatever the audience.
ALTER TABLE events ADD COLUMN except_user_id text COLLATE "C";
