-- Fewer index writes per webhook delivery: the queue is written in every send's transaction and
-- updated twice per attempt (claimed, then its outcome), and each update that touches an indexed
-- column writes a new entry into every index of the table (scripts/bench/webhooks: sends with
-- webhooks on were 0.78-0.85x of off, PostgreSQL being the bottleneck).
--  - `webhook_id` needs no unique index: it is a random UUID, and nothing looks deliveries up by it.
--  - The delivery log is read newest first by primary key; only the failed ones (few) are worth an
--    index of their own, to list them without scanning the delivered.
--  - Room in every page, so that the claim (which changes no indexed column) is a HOT update.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_key;
DROP INDEX webhook_deliveries_listing_idx;
CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (delivery_id) WHERE status = 'failed';
ALTER TABLE webhook_deliveries SET (fillfactor = 80);
