import Logging
import OwnedTasks
import ParleyCore
import ParleyStore
import ServiceLifecycle

/// Every instance runs one: it claims the scheduled messages that are due (a lease in PostgreSQL,
/// so two instances never send one at once, and one whose instance died is claimed again when
/// the lease runs out) and sends them (`ScheduledMessageDelivery`).
public final class ScheduledMessageDispatcher: Service, Sendable {
    let store: Store
    let delivery: ScheduledMessageDelivery
    let settings: ScheduledDeliverySettings
    let logger: Logger

    public init(store: Store, delivery: ScheduledMessageDelivery, settings: ScheduledDeliverySettings, logger: Logger) {
        self.store = store
        self.delivery = delivery
        self.settings = settings
        self.logger = logger
    }

    public func run() async throws {
        await PollingLoop.run(enabled: settings.enabled, every: settings.pollInterval) { await self.sendDue() >= self.settings.batch }
    }

    /// One round: claims what is due and sends it, oldest time first; returns how many it claimed.
    @discardableResult
    public func sendDue() async -> Int {
        let (lease, batch) = (settings.lease.milliseconds, settings.batch)
        let claimed: [ScheduledMessage]
        do {
            guard try await store.read({ try $0.scheduledMessages.anyDue() }) else { return 0 }
            claimed = try await store.transaction { try $0.scheduledMessages.claim(lease: lease, limit: batch) }
        } catch {
            logger.warning("claiming due scheduled messages failed", metadata: ["error": "\(error)"])
            return 0
        }
        for scheduled in claimed { _ = await delivery.deliver(scheduled) }
        return claimed.count
    }
}
