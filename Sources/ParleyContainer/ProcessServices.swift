import CurlHTTP
import Postgres
import ServiceLifecycle

/// The outbound HTTP client's thread, stopped on graceful shutdown.
struct OutboundHTTP: Service {
    let client: CurlClient

    func run() async throws {
        try? await gracefulShutdown()
        client.shutdown()
    }
}

/// `GET /ready`: the database answers and every migration file is applied unchanged.
public struct ReadinessProbe: Sendable {
    let pool: ConnectionPool
    let migrator: Migrator

    public func isReady() async -> Bool {
        let migrator = migrator
        return (try? await pool.withConnection { try migrator.status(on: $0).isCurrent }) ?? false
    }
}
