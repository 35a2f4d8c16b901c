-- Replay (API.md §6.3) gives a user only what they could have received when each event happened:
-- a channel's events from the moment they were in it, not what came before they joined or were
-- invited (a message deleted before they joined, a text as it was before an edit). Each
-- membership remembers the newest event id handed out when it began (an invitation, a join, an
-- enter); a channel event replays to it only when it comes after. Kept by triggers, as the member
-- version of 0008 is: several statements add members and change their state.
ALTER TABLE group_channel_members ADD COLUMN since_event_id bigint NOT NULL DEFAULT 0;
ALTER TABLE open_channel_participants ADD COLUMN since_event_id bigint NOT NULL DEFAULT 0;

CREATE FUNCTION parley_membership_began() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF OLD.state IS NOT DISTINCT FROM NEW.state THEN
            RETURN NEW;
        END IF;
    END IF;
    NEW.since_event_id := (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM event_ids);
    RETURN NEW;
END $$;
CREATE TRIGGER group_channel_members_since BEFORE INSERT OR UPDATE OF state ON group_channel_members
    FOR EACH ROW EXECUTE FUNCTION parley_membership_began();
-- Participants have no state (only inserts fire it); a renewed enter (an upsert) keeps the row and
-- so its start.
CREATE TRIGGER open_channel_participants_since BEFORE INSERT ON open_channel_participants
    FOR EACH ROW EXECUTE FUNCTION parley_membership_began();

CREATE OR REPLACE VIEW channel_recipients AS
    SELECT channel_url, user_id, state, ts_message_offset, since_event_id FROM group_channel_members
    UNION ALL
    SELECT channel_url, user_id, 'joined', 0, since_event_id FROM open_channel_participants;
