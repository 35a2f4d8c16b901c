import ParleyCore
import Postgres

/// SQL of the statistics (migration 0038, API.md §14.5). Days are counted since 1970-01-01 (UTC).
public struct StatisticsRepository {
    let connection: PostgresConnection

    public func recordActive(day: Int64, userIDs: [String]) throws {
        // Only users who still exist: an instance may write what it saw after a GDPR erasure
        // took the user (and their rows here) away.
        try connection.query(
            """
            INSERT INTO daily_active_users (day, user_id)
            SELECT DATE '1970-01-01' + $1::integer, a.user_id FROM unnest($2::text[]) a(user_id)
            WHERE EXISTS (SELECT 1 FROM users u WHERE u.user_id = a.user_id)
            ON CONFLICT DO NOTHING
            """,
            [day, userIDs])
    }

    /// Sockets open now, on every instance (as `is_online` counts them).
    public func connections() throws -> Int {
        try connection.query("SELECT count(*) AS n FROM event_sockets")[0].decode("n")
    }

    /// Raises the day's peak to the sockets open now.
    public func samplePeak(day: Int64) throws {
        try connection.query(
            """
            INSERT INTO connection_peaks (day, peak) SELECT DATE '1970-01-01' + $1::integer, count(*) FROM event_sockets
            ON CONFLICT (day) DO UPDATE SET peak = greatest(connection_peaks.peak, EXCLUDED.peak)
            """,
            [day])
    }

    /// Users active on any day from `first` through `last`.
    public func activeUsers(from first: Int64, through last: Int64) throws -> Int {
        try connection.query(
            """
            SELECT count(DISTINCT user_id) AS n FROM daily_active_users
            WHERE day BETWEEN DATE '1970-01-01' + $1::integer AND DATE '1970-01-01' + $2::integer
            """,
            [first, last]
        )[0].decode("n")
    }

    /// The recorded peak of each day from `first` through `last` that has one.
    public func peaks(from first: Int64, through last: Int64) throws -> [Int64: Int] {
        let rows = try connection.query(
            """
            SELECT (day - DATE '1970-01-01')::bigint AS day, peak FROM connection_peaks
            WHERE day BETWEEN DATE '1970-01-01' + $1::integer AND DATE '1970-01-01' + $2::integer
            """,
            [first, last])
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode("day"), try $0.decode("peak")) })
    }

    /// A metric counted per day (or per month, keyed by its first day) from `first` through
    /// `last`: `messages`, `message_senders`, `created_channels` or `active_users`.
    public func metric(_ name: String, monthly: Bool, from first: Int64, through last: Int64) throws -> [Int64: Int] {
        let day = "(created_at / 86400000)"
        let bucket = { (days: String) in
            monthly
                ? "(date_trunc('month', DATE '1970-01-01' + (\(days))::integer)::date - DATE '1970-01-01')::bigint" : "(\(days))::bigint"
        }
        let inSpan = "created_at >= $1::bigint * 86400000 AND created_at < ($2::bigint + 1) * 86400000"
        let query: String
        switch name {
        case "messages": query = "SELECT \(bucket(day)) AS bucket, count(*) AS n FROM messages WHERE \(inSpan) GROUP BY 1"
        case "message_senders":
            query = "SELECT \(bucket(day)) AS bucket, count(DISTINCT sender_id) AS n FROM messages WHERE \(inSpan) GROUP BY 1"
        case "created_channels":
            query = """
                SELECT \(bucket(day)) AS bucket, count(*) AS n FROM (SELECT created_at FROM group_channels UNION ALL
                    SELECT created_at FROM open_channels) c WHERE \(inSpan) GROUP BY 1
                """
        default:
            query = """
                SELECT \(bucket("day - DATE '1970-01-01'")) AS bucket, count(DISTINCT user_id) AS n FROM daily_active_users
                WHERE day BETWEEN DATE '1970-01-01' + $1::integer AND DATE '1970-01-01' + $2::integer GROUP BY 1
                """
        }
        let rows = try connection.query(query, [first, last])
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode("bucket"), try $0.decode("n")) })
    }
}
