import Foundation
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyStore

/// Message retention (API.md §14.3): a recurring job (`JobRunner`'s `recurring`) that removes the
/// messages older than `PARLEY_MESSAGE_RETENTION_DAYS` in batches (`RetentionPurge`), each its own
/// short transaction, then rests `restFactor` times as long as the batch took, so that a long
/// purge takes at most a share of the database and sends go on beside it. Measured with
/// `scripts/bench/retention` (sends paced at 300/s, two cores): with a fixed 10 ms pause the purge
/// ran at 1,746 messages/s and the sends' p99 rose 1.48×.
public struct RetentionJob: JobHandler {
    public static let jobKind = "retention"
    public let kind = RetentionJob.jobKind
    let files: FileService
    let retention: Duration
    let batchSize: Int
    let restFactor: Int

    public init(files: FileService, retention: Duration, batchSize: Int, restFactor: Int = 3) {
        self.files = files
        self.retention = retention
        self.batchSize = batchSize
        self.restFactor = restFactor
    }

    struct Progress: Codable, Sendable {
        var removed = 0
        /// Stored files whose rows the last batch removed: removed from storage after its commit.
        var pendingFiles: [String] = []
    }

    public func run(_ job: RunningJob) async throws -> String {
        var progress = try job.progress(Progress.self, fresh: Progress())
        let (cutoff, batchSize) = (job.clock.nowMillis - retention.milliseconds, batchSize)
        while true {
            await files.removeStoredFiles(progress.pendingFiles)
            let (now, started) = (job.clock.nowMillis, ContinuousClock.now)
            let (removed, next) = try await job.step(
                { repositories, p in
                    let batch = try RetentionPurge.purgeBatch(before: cutoff, limit: batchSize, now: now, repositories)
                    (p.removed, p.pendingFiles) = (p.removed + batch.removed, batch.fileIDs)
                    return batch.removed
                }, from: progress)
            progress = next
            if removed == 0 { break }
            try await Task.sleep(for: (ContinuousClock.now - started) * restFactor)
        }
        await files.removeStoredFiles(progress.pendingFiles)
        return String(decoding: try JSONEncoder().encode(["removed": progress.removed, "cutoff": Int(cutoff)]), as: UTF8.self)
    }
}
