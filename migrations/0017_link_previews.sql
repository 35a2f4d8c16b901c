-- Link previews (API.md §11.1): a message's Open Graph tags, and the previews of URLs made in
-- the last hour (failures too, as NULL), so that a link posted in many messages is fetched once.
ALTER TABLE messages ADD COLUMN og_tag jsonb;
CREATE UNLOGGED TABLE link_previews (
    url        text   PRIMARY KEY,
    og_tag     jsonb,
    fetched_at bigint NOT NULL
);
