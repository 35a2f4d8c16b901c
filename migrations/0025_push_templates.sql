-- The application's push templates (API.md §12.2): how a push's text is written, per message
-- type, with `{sender_name}`, `{message}`, `{filename}` and `{channel_name}`. Each user chooses
-- `default` or `alternative` (`push_preferences.template`).

CREATE TABLE push_templates (
    name text COLLATE "C" PRIMARY KEY CHECK (name IN ('default', 'alternative')),
    mesg text NOT NULL,
    file text NOT NULL,
    admm text NOT NULL
);
INSERT INTO push_templates (name, mesg, file, admm) VALUES
    ('default', '{sender_name}: {message}', '{sender_name}: {filename}', '{message}'),
    ('alternative', 'New message from {sender_name}', 'New file from {sender_name}', 'New message');
