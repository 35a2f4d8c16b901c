import Postgres

/// Counts sends per user and channel in one-second windows, in the database so that every
/// server instance enforces one limit.
public struct SendRateRepository {
    let connection: PostgresConnection

    /// Records a send at `now` and returns how many sends this window now holds.
    public func record(_ channelURL: String, _ userID: String, now: Int64) throws -> Int {
        try connection.query(
            """
            INSERT INTO send_rate_windows (channel_url, user_id, window_start, sends) VALUES ($1, $2, $3, 1)
            ON CONFLICT (channel_url, user_id) DO UPDATE SET
                sends = CASE WHEN send_rate_windows.window_start = EXCLUDED.window_start THEN send_rate_windows.sends + 1 ELSE 1 END,
                window_start = EXCLUDED.window_start
            RETURNING sends
            """,
            [channelURL, userID, now / 1000]
        )[0].decode("sends")
    }
}
