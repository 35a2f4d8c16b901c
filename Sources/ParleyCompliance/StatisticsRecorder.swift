import Logging
import ParleyCore
import ParleyStore
import ServiceLifecycle

/// Every instance runs one (API.md §14.5): it writes the users its requests saw active
/// (`ActivityLog`) and raises the day's connection peak to the sockets open now, every
/// `interval`, and writes what is left when the instance stops.
public struct StatisticsRecorder: Service {
    let store: Store
    let activity: ActivityLog
    let clock: Clock
    let interval: Duration
    let logger: Logger

    public init(store: Store, activity: ActivityLog, clock: Clock, interval: Duration, logger: Logger) {
        self.store = store
        self.activity = activity
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.record()
                try await Task.sleep(for: self.interval)
            }
        }
        await flush()
    }

    /// One round: the activity, then a sample of the peak.
    public func record() async {
        await flush()
        let day = clock.nowMillis / 86_400_000
        do {
            try await store.read { try $0.statistics.samplePeak(day: day) }
        } catch {
            logger.warning("sampling the connection peak failed", metadata: ["error": "\(error)"])
        }
    }

    private func flush() async {
        let pending = activity.take()
        guard !pending.isEmpty else { return }
        do {
            try await store.read { repositories in
                for (day, users) in pending { try repositories.statistics.recordActive(day: day, userIDs: Array(users)) }
            }
        } catch {
            activity.putBack(pending)
            logger.warning("recording active users failed", metadata: ["error": "\(error)"])
        }
    }
}
