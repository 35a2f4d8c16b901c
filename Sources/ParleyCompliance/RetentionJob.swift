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

    public func run(_ job: RunningJob) async throws -> String {
        let (cutoff, batchSize) = (job.clock.nowMillis - retention.milliseconds, batchSize)
        let removed = try await Self.purge(job, files: files, restFactor: restFactor) { repositories, now in
            try RetentionPurge.purgeBatch(before: cutoff, limit: batchSize, now: now, repositories)
        }
        return String(decoding: try JSONEncoder().encode(["removed": removed, "cutoff": Int(cutoff)]), as: UTF8.self)
    }

    struct Progress: Codable, Sendable {
        var removed = 0
        /// Stored files whose rows the last batch removed: removed from storage after its commit.
        var pendingFiles: [String] = []
    }

    /// Runs `batch` until it removes nothing, each batch in the transaction that saves the job's
    /// progress, resting `restFactor` times as long as the batch took; returns how many went.
    static func purge(
        _ job: RunningJob, files: FileService, restFactor: Int,
        _ batch: @escaping @Sendable (Repositories, Int64) throws -> (removed: Int, fileIDs: [String])
    ) async throws -> Int {
        var progress = try job.progress(Progress.self, fresh: Progress())
        while true {
            await files.removeStoredFiles(progress.pendingFiles)
            let (now, started) = (job.clock.nowMillis, ContinuousClock.now)
            let (removed, next) = try await job.step(
                { repositories, p in
                    let result = try batch(repositories, now)
                    (p.removed, p.pendingFiles) = (p.removed + result.removed, result.fileIDs)
                    return result.removed
                }, from: progress)
            progress = next
            if removed == 0 { break }
            try await Task.sleep(for: (ContinuousClock.now - started) * restFactor)
        }
        await files.removeStoredFiles(progress.pendingFiles)
        return progress.removed
    }
}

/// A channel's own retention and disappearing messages (API.md §14.3): a recurring job that notes
/// how far every disappearing-messages channel is read, then removes what is due as
/// `RetentionJob` does, in resting batches (`RetentionPurge.purgeChannelsBatch`). It runs every
/// `PARLEY_CHANNEL_RETENTION_INTERVAL_SECONDS`: a disappearing message goes within that after its
/// time. With no channel using either, a run is two reads of empty partial indexes.
public struct ChannelRetentionJob: JobHandler {
    public static let jobKind = "channel_retention"
    public let kind = ChannelRetentionJob.jobKind
    let files: FileService
    let batchSize: Int

    public init(files: FileService, batchSize: Int) {
        self.files = files
        self.batchSize = batchSize
    }

    public func run(_ job: RunningJob) async throws -> String {
        let (now, batchSize) = (job.clock.nowMillis, batchSize)
        try await job.store.transaction { try $0.retention.markReads(now: now) }
        let removed = try await RetentionJob.purge(job, files: files, restFactor: 3) { repositories, now in
            try RetentionPurge.purgeChannelsBatch(limit: batchSize, now: now, repositories)
        }
        return #"{"removed":\#(removed)}"#
    }
}
