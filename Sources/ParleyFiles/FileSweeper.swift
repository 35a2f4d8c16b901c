import Foundation
import Logging
import ServiceLifecycle

/// Removes the unfinished uploads a crash left in this instance's `<root>/tmp`, at start-up and
/// then every `interval`, once older than `gracePeriod` (an upload still arriving is written to
/// all along). Every instance runs one for its own folder; stored files that no message took are
/// the recurring `StoredFileSweepJob`'s, which one instance runs for the shared store.
public struct FileSweeper: Service {
    let storage: FileStorage
    let logger: Logger
    let interval: Duration
    let gracePeriod: TimeInterval

    public init(storage: FileStorage, logger: Logger, interval: Duration = .seconds(3600), gracePeriod: TimeInterval = 3600) {
        self.storage = storage
        self.logger = logger
        self.interval = interval
        self.gracePeriod = gracePeriod
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let removed = try await sweep()
                if removed > 0 { logger.info("removed unfinished uploads", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.warning("upload sweep failed", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// One pass; returns how many unfinished uploads it removed.
    @discardableResult
    public func sweep(now: Date = Date()) async throws -> Int {
        let temporary = try await storage.temporaryPaths(olderThan: now.addingTimeInterval(-gracePeriod))
        _ = try await BlockingWork.run { temporary.forEach { unlink($0) } }
        return temporary.count
    }
}
