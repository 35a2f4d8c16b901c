import Logging
import ParleyStore
import Postgres
import ServiceLifecycle

/// The database side of one process: the primary's pools (requests, and search's own share),
/// the read replicas' pools and their monitor (issue 51.3), and the stores over them.
struct DatabasePools {
    let primary: ConnectionPool
    let search: ConnectionPool
    let store: Store
    let searchStore: Store
    private let replicaPools: [ConnectionPool]
    private let replicaMonitor: ReplicaMonitor?

    init(config: Config, logger: Logger) {
        var configuration = ConnectionPool.Configuration(conninfo: config.databaseURL, size: config.databasePoolSize)
        configuration.acquireTimeout = config.databaseAcquireTimeout
        configuration.maxWaiting = config.databaseMaxWaiting
        configuration.session = config.databaseSession
        primary = ConnectionPool(configuration: configuration, logger: logger)
        search = ConnectionPool(configuration: config.searchPoolConfiguration, logger: logger)
        guard let settings = config.readReplicas else {
            (store, searchStore, replicaPools, replicaMonitor) = (Store(pool: primary), Store(pool: search), [], nil)
            return
        }
        // Searches keep their own connections and timeout on the replicas too (issue 50.1).
        let readPools = config.replicaPools(like: configuration, logger: logger)
        let searchPools = config.replicaPools(like: config.searchPoolConfiguration, size: config.search.connections, logger: logger)
        let monitor = ReplicaMonitor(primary: primary, replicas: readPools, settings: settings.monitor, logger: logger)
        store = Store(pool: primary, replicas: ReadReplicas(monitor: monitor, pools: readPools, logger: logger))
        searchStore = Store(pool: search, replicas: ReadReplicas(monitor: monitor, pools: searchPools, logger: logger))
        replicaPools = (readPools + searchPools).map(\.pool)
        replicaMonitor = monitor
    }

    /// In the order they start (and stop in reverse): the monitor stops before the pools it uses.
    var services: [any Service] { [primary, search] + replicaPools + (replicaMonitor.map { [$0] } ?? []) }

    func close() async {
        for pool in [primary, search] + replicaPools { await pool.close() }
    }
}
