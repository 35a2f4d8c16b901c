import Foundation
import Logging
import ParleyStore
import ServiceLifecycle

/// Removes what a crash or a failed send left behind: stored files that no message links to and
/// unfinished uploads. Runs at start-up and then every `interval`; only touches files older
/// than `gracePeriod`, so an upload whose message is still being saved is left alone.
public struct FileSweeper: Service {
    let storage: FileStorage
    let store: Store
    let logger: Logger
    let interval: Duration
    let gracePeriod: TimeInterval

    public init(storage: FileStorage, store: Store, logger: Logger, interval: Duration = .seconds(3600), gracePeriod: TimeInterval = 3600) {
        self.storage = storage
        self.store = store
        self.logger = logger
        self.interval = interval
        self.gracePeriod = gracePeriod
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let removed = try await sweep()
                if removed > 0 { logger.info("removed orphaned files", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.warning("file sweep failed", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// One pass; returns how many files and unfinished uploads it removed.
    @discardableResult
    public func sweep(now: Date = Date()) async throws -> Int {
        let storage = storage
        let cutoff = now.addingTimeInterval(-gracePeriod)
        let (candidates, temporary) = try await storage.entries(olderThan: cutoff)
        var removed = 0
        let ids = Array(candidates)
        for start in stride(from: 0, to: ids.count, by: 1000) {
            let batch = Array(ids[start..<min(start + 1000, ids.count)])
            let known = try await store.read { try $0.files.known(batch, now: Int64(now.timeIntervalSince1970 * 1000)) }
            let orphans = batch.filter { !known.contains($0) }
            await storage.remove(orphans)
            removed += orphans.count
        }
        _ = try await BlockingWork.run { temporary.forEach { unlink($0) } }
        return removed + temporary.count
    }
}
