import ParleyCore
import Postgres

/// The times of each user's latest accepted sends per channel (`send_rate_windows`, migration
/// 0012), in the database so that every server instance enforces one sliding window.
public struct SendRateRepository {
    let connection: PostgresConnection

    /// Records a send at `now` when fewer than `limit` sends fall in the second before it
    /// (`now - window`, `now`], and returns nil; otherwise records nothing and returns when the
    /// oldest of those leaves the window. The row lock serialises one user's sends to a channel
    /// across instances; only the latest `limit` times are kept.
    public func admit(_ kind: ChannelKind, _ channelURL: String, _ userID: String, now: Int64, limit: Int, window: Int64) throws -> Int64? {
        let admitted = try connection.query(
            """
            INSERT INTO send_rate_windows AS w (channel_type, channel_url, user_id, recent) VALUES ($1, $2, $3, ARRAY[$4::bigint])
            ON CONFLICT (channel_type, channel_url, user_id) DO UPDATE SET recent = (
                SELECT array_agg(t ORDER BY t) FROM (
                    SELECT t FROM unnest(w.recent || $4::bigint) AS t WHERE t > $4::bigint - $6 ORDER BY t DESC LIMIT $5) AS kept)
            WHERE (SELECT count(*) FROM unnest(w.recent) AS t WHERE t > $4::bigint - $6) < $5
            RETURNING 1
            """,
            [kind.rawValue, channelURL, userID, now, limit, window]
        )
        guard admitted.isEmpty else { return nil }
        let oldest: Int64? = try connection.query(
            """
            SELECT min(t) AS oldest FROM send_rate_windows, unnest(recent) AS t
            WHERE channel_type = $1 AND channel_url = $2 AND user_id = $3 AND t > $4::bigint - $5
            """,
            [kind.rawValue, channelURL, userID, now, window]
        )[0].decodeIfPresent("oldest")
        return (oldest ?? now) + window
    }

    /// Marks the sender alerted now, unless an alert went out within `every` ms; whether it did.
    /// The row's lock makes one instance the one that alerts.
    public func markAlerted(_ kind: ChannelKind, _ channelURL: String, _ userID: String, now: Int64, every: Int64) throws -> Bool {
        !(try connection.query(
            """
            UPDATE send_rate_windows SET alerted_at = $4
            WHERE channel_type = $1 AND channel_url = $2 AND user_id = $3 AND (alerted_at IS NULL OR alerted_at <= $4::bigint - $5)
            RETURNING 1
            """,
            [kind.rawValue, channelURL, userID, now, every]
        ).isEmpty)
    }
}
