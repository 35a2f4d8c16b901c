import Foundation
import ParleyFiles

/// Removes stored files that no message took (an upload whose send failed, or a crash between
/// storing a file and saving its message), once an hour on whichever instance takes the recurring
/// job: one listing of the shared folder or bucket per hour however many instances there are.
/// It goes a page at a time and saves its position after each (`RunningJob.step`), so memory holds
/// one page of a bucket of any size and an instance that takes over a dead one's sweep goes on
/// where it stopped. Only files older than the grace period are looked at: a younger one may
/// belong to a send still being saved.
public struct StoredFileSweepJob: JobHandler {
    public static let jobKind = "stored_file_sweep"
    public static let interval: Duration = .seconds(3600)
    public let kind = StoredFileSweepJob.jobKind
    let files: FileService
    let gracePeriod: TimeInterval

    public init(files: FileService, gracePeriod: TimeInterval = 3600) {
        self.files = files
        self.gracePeriod = gracePeriod
    }

    struct Progress: Codable, Sendable {
        /// The name the next page starts after; nil once the last page is done.
        var after: String? = ""
        var removed = 0
    }

    public func run(_ job: RunningJob) async throws -> String {
        var progress = try job.progress(fresh: Progress())
        // Files are judged against the time the sweep started, not each page's.
        let now = Date(timeIntervalSince1970: Double(job.job.createdAt) / 1000)
        while let after = progress.after {
            let (removed, next) = try await files.sweepStoredFiles(after: after, now: now, gracePeriod: gracePeriod)
            (_, progress) = try await job.step(
                { _, saved in
                    saved.after = next
                    saved.removed += removed
                }, from: progress)
        }
        return #"{"removed":\#(progress.removed)}"#
    }
}
