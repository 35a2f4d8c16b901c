-- The application's emoji set (API.md §14.6, Sendbird's emoji categories and emojis) and the
-- application's settings (§14.6–14.7): when a set is defined and the default set is not chosen,
-- reactions take only its keys; reactions can be turned off altogether; and whether a user who
-- has not said joins the channels they are invited to.
CREATE TABLE emoji_categories (
    id         bigserial PRIMARY KEY,
    name       text   NOT NULL,
    url        text   NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE emojis (
    id          bigserial PRIMARY KEY,
    key         text COLLATE "C" NOT NULL UNIQUE,
    url         text   NOT NULL,
    category_id bigint NOT NULL REFERENCES emoji_categories (id) ON DELETE CASCADE,
    created_at  bigint NOT NULL
);
CREATE INDEX emojis_category_idx ON emojis (category_id, id);

CREATE TABLE application_settings (
    only_row            boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    reactions_enabled   boolean NOT NULL DEFAULT true,
    use_default_emoji   boolean NOT NULL DEFAULT false,
    default_auto_accept boolean NOT NULL DEFAULT true
);
INSERT INTO application_settings (only_row) VALUES (true);
