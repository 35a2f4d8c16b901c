-- When a sender's flood protection last raised `alert:user_message_rate_limit_exceeded` in a
-- channel: at most one alert a minute per sender and channel, over all instances.
ALTER TABLE send_rate_windows ADD COLUMN alerted_at bigint;
