import Foundation
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyStore

/// Message retention (API.md §14.3): a recurring job (`JobRunner`'s `recurring`) that removes the
/// messages older than `PARLEY_MESSAGE_RETENTION_DAYS` in batches (`RetentionPurge`), each its own
/// short transaction, with a pause between them so that sends go on beside a long purge.
public struct RetentionJob: JobHandler {
    public static let jobKind = "retention"
    public let kind = RetentionJob.jobKind
    let files: FileService
    let retention: Duration
    let batchSize: Int
    let pause: Duration

    public init(files: FileService, retention: Duration, batchSize: Int, pause: Duration = .milliseconds(10)) {
        self.files = files
        self.retention = retention
        self.batchSize = batchSize
        self.pause = pause
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
            let now = job.clock.nowMillis
            let (removed, next) = try await job.step(
                { repositories, p in
                    let batch = try RetentionPurge.purgeBatch(before: cutoff, limit: batchSize, now: now, repositories)
                    (p.removed, p.pendingFiles) = (p.removed + batch.removed, batch.fileIDs)
                    return batch.removed
                }, from: progress)
            progress = next
            if removed == 0 { break }
            try await Task.sleep(for: pause)
        }
        await files.removeStoredFiles(progress.pendingFiles)
        return String(decoding: try JSONEncoder().encode(["removed": progress.removed, "cutoff": Int(cutoff)]), as: UTF8.self)
    }
}
