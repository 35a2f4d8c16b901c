import ParleyCore
import Postgres

/// SQL of the statistics (migration 0038, API.md §14.5). Days are counted since 1970-01-01 (UTC).
public struct StatisticsRepository {
    let connection: PostgresConnection

    public func recordActive(day: Int64, userIDs: [String]) throws {
        try connection.query(
            """
            INSERT INTO daily_active_users (day, user_id) SELECT DATE '1970-01-01' + $1::integer, unnest($2::text[])
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
}
