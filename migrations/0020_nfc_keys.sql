-- Metadata keys and reaction keys in Unicode NFC (issue 29.15). The server now takes every key in
-- NFC; rows written before could hold other spellings of one key ("é" as U+00E9 and as "e" +
-- U+0301), which PostgreSQL kept as two rows and the server, comparing by canonical equivalence,
-- read back as one. Where spellings of one key meet, the row already in NFC is kept, else the one
-- whose key sorts first by its bytes; the rest are deleted, and the survivors' keys normalized.

DELETE FROM user_metadata m
WHERE m.key IS NOT NFC NORMALIZED
  AND EXISTS (
    SELECT 1 FROM user_metadata o
    WHERE o.user_id = m.user_id AND normalize(o.key, NFC) = normalize(m.key, NFC)
      AND (o.key IS NFC NORMALIZED OR o.key COLLATE "C" < m.key COLLATE "C"));
UPDATE user_metadata SET key = normalize(key, NFC) WHERE key IS NOT NFC NORMALIZED;

DELETE FROM group_channel_metadata m
WHERE m.key IS NOT NFC NORMALIZED
  AND EXISTS (
    SELECT 1 FROM group_channel_metadata o
    WHERE o.channel_url = m.channel_url AND normalize(o.key, NFC) = normalize(m.key, NFC)
      AND (o.key IS NFC NORMALIZED OR o.key COLLATE "C" < m.key COLLATE "C"));
UPDATE group_channel_metadata SET key = normalize(key, NFC) WHERE key IS NOT NFC NORMALIZED;

DELETE FROM open_channel_metadata m
WHERE m.key IS NOT NFC NORMALIZED
  AND EXISTS (
    SELECT 1 FROM open_channel_metadata o
    WHERE o.channel_url = m.channel_url AND normalize(o.key, NFC) = normalize(m.key, NFC)
      AND (o.key IS NFC NORMALIZED OR o.key COLLATE "C" < m.key COLLATE "C"));
UPDATE open_channel_metadata SET key = normalize(key, NFC) WHERE key IS NOT NFC NORMALIZED;

-- A user's reaction spelled two ways is one reaction, recorded when the kept row was.
DELETE FROM message_reactions m
WHERE m.reaction IS NOT NFC NORMALIZED
  AND EXISTS (
    SELECT 1 FROM message_reactions o
    WHERE o.message_id = m.message_id AND o.user_id = m.user_id
      AND normalize(o.reaction, NFC) = normalize(m.reaction, NFC)
      AND (o.reaction IS NFC NORMALIZED OR o.reaction COLLATE "C" < m.reaction COLLATE "C"));
UPDATE message_reactions SET reaction = normalize(reaction, NFC) WHERE reaction IS NOT NFC NORMALIZED;
