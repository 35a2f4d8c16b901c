import Postgres

/// The one query readiness needs: is the database there.
public struct HealthRepository {
    let connection: PostgresConnection

    public func ping() throws {
        try connection.query("SELECT 1")
    }
}
