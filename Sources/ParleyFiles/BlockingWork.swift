import NIOCore
import NIOPosix

/// Runs blocking file work (reads, writes, fsync, thumbnailing, waiting for ffmpeg) on a thread
/// pool of its own, so that it never holds up the cooperative threads that serve requests.
///
/// The pool has a fixed number of threads: a flood of uploads and downloads queues here instead
/// of growing the process by a thread per blocked job, as Dispatch's global queue does.
enum BlockingWork {
    /// Twice the cores (the work is mostly waiting on the disk), at least 4, at most 16.
    static let threadCount = min(16, max(4, 2 * System.coreCount))

    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threadCount)
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(work)
    }
}
