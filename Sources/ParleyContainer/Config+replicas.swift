import Logging
import ParleyStore
import Postgres

/// Read replicas (issue 51.3): `DATABASE_READ_URL` names one or more standbys (libpq's
/// multi-host form: each host gets a pool of its own), which serve the reads that may lag.
public struct ReadReplicaSettings: Sendable {
    public var url: String
    /// Connections per replica (`PARLEY_DB_READ_POOL_SIZE`; defaults to the primary's pool size).
    public var poolSize: Int
    public var monitor = ReplicaMonitor.Settings()

    public init(url: String, poolSize: Int) {
        self.url = url
        self.poolSize = poolSize
    }
}

extension Config {
    static func readReplicas(into config: inout Config, _ reader: EnvironmentReader) throws {
        guard let url = reader.environment["DATABASE_READ_URL"], !url.isEmpty else { return }
        guard let servers = Conninfo.perServer(url), !servers.isEmpty else {
            throw ConfigError(
                "DATABASE_READ_URL must name its replicas by host (a libpq connection string or postgresql:// URI, without hostaddr).")
        }
        var settings = ReadReplicaSettings(
            url: url, poolSize: try reader.int("PARLEY_DB_READ_POOL_SIZE", default: config.databasePoolSize, range: 1...256))
        settings.monitor.maxLag = .milliseconds(try reader.int("PARLEY_DB_READ_MAX_LAG_MS", default: 2000, range: 100...600_000))
        config.readReplicas = settings
    }

    /// The pools of the replicas for reads run with `configuration` (the primary's, or search's),
    /// of `size` connections each (`PARLEY_DB_READ_POOL_SIZE` by default).
    func replicaPools(
        like configuration: ConnectionPool.Configuration, size: Int? = nil, logger: Logger
    ) -> [(name: String, pool: ConnectionPool)] {
        guard let readReplicas else { return [] }
        var configuration = configuration
        configuration.size = size ?? readReplicas.poolSize
        return ReadReplicas.pools(conninfo: readReplicas.url, configuration: configuration, logger: logger) ?? []
    }
}
