import Logging
import ParleyCore
import ParleyStore
import ServiceLifecycle

/// The push queue's worker on every instance (API.md §12.6), a lifecycle service. Today it keeps
/// the queue to its time limit: pushes of messages older than `PushSettings.deliveryLimit` are
/// dropped, every `sweepInterval`. Claiming rows and sending them to the providers (§12.3–12.5)
/// are the next part of issue 31.
public final class PushDispatcher: Service, Sendable {
    let store: Store
    let settings: PushSettings
    let logger: Logger

    public init(store: Store, settings: PushSettings, logger: Logger) {
        self.store = store
        self.settings = settings
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.dropExpired()
                try await Task.sleep(for: self.settings.sweepInterval)
            }
        }
    }

    /// One pass: the expired pushes go.
    func dropExpired() async {
        let limit = settings.deliveryLimit.components.seconds * 1000
        do {
            let dropped = try await store.transaction { try $0.pushQueue.dropExpired(olderThanMillis: limit) }
            if dropped > 0 { logger.debug("expired pushes dropped", metadata: ["pushes": "\(dropped)"]) }
        } catch {
            logger.warning("dropping expired pushes failed", metadata: ["error": "\(error)"])
        }
    }
}

/// How pushes are delivered (API.md §12.6).
public struct PushSettings: Sendable {
    /// A push not delivered within this after its message was sent is dropped.
    public var deliveryLimit: Duration = .seconds(600)
    /// How often the queue is looked at for expired pushes.
    public var sweepInterval: Duration = .seconds(60)

    public init() {}
}
