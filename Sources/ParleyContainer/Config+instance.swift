/// What this instance takes part in besides answering requests: where its metrics are served,
/// and whether it works the queues every instance shares.
extension Config {
    /// `PARLEY_QUEUE_WORKERS` (default `true`): pushes, webhook deliveries, scheduled messages and
    /// jobs (the stored files' sweep among them) are claimed from the database by whichever
    /// instances run their workers. `false` makes an API-only instance, so that a deployment can
    /// give that work to worker instances of their own (their own CPU, scaled apart from the API;
    /// docs/OPERATIONS.md).
    static func readInstanceRole(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.metrics = try readMetrics(reader)
        config.queueWorkers = try reader.bool("PARLEY_QUEUE_WORKERS", default: true)
    }

    private static func readMetrics(_ reader: EnvironmentReader) throws -> MetricsExposure {
        guard try reader.bool("PARLEY_METRICS", default: true) else { return .off }
        guard reader.environment["PARLEY_METRICS_PORT"].map({ !$0.isEmpty }) == true else { return .apiToken }
        let port = try reader.int("PARLEY_METRICS_PORT", default: 0, range: 1...65535)
        let host = reader.environment["PARLEY_METRICS_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        return .port(host: host, port: port)
    }
}
