import ServiceLifecycle

/// The loop of a lifecycle service that polls PostgreSQL for work (due scheduled messages,
/// jobs): a round, then a pause of `interval` unless the round says more is waiting; until
/// graceful shutdown. Disabled, it waits for shutdown instead (returning would end the group).
public enum PollingLoop {
    public static func run(enabled: Bool, every interval: Duration, _ round: @escaping @Sendable () async -> Bool) async {
        guard enabled else {
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if await !round() { try await Task.sleep(for: interval) }
            }
        }
    }
}
