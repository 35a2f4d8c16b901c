-- Tracing (issue 37): the W3C `traceparent` of the traced (sampled) request that queued a webhook
-- delivery or a message's push, so that the delivery, on whichever instance and however late,
-- continues that trace. NULL when the request was not traced (tracing off, or not sampled).
ALTER TABLE webhook_deliveries ADD COLUMN traceparent text;
ALTER TABLE push_queue ADD COLUMN traceparent text;
