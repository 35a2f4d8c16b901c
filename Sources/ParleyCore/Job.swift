/// A background job (API.md §14): a GDPR request now, exports and retention after it. It is a
/// row in PostgreSQL that any instance may claim, never state in one process.
public struct Job: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Waiting for an instance to take it.
        case scheduled
        /// Taken: an instance works on it (or did, and another takes over when the lease runs out).
        case processing
        case done
        case failed
        case canceled
    }

    public let jobID: String
    public let kind: String
    /// What was asked, as the job's kind encodes it (JSON text).
    public let params: String
    public let status: Status
    /// Where the work stands (JSON text), saved with each batch of it.
    public let progress: String
    /// What the finished job produced or removed (JSON text).
    public let result: String?
    public let error: String?
    public let createdAt: Int64
    public let updatedAt: Int64
    public let finishedAt: Int64?

    public init(
        jobID: String, kind: String, params: String, status: Status, progress: String, result: String?, error: String?,
        createdAt: Int64, updatedAt: Int64, finishedAt: Int64?
    ) {
        self.jobID = jobID
        self.kind = kind
        self.params = params
        self.status = status
        self.progress = progress
        self.result = result
        self.error = error
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
    }
}

/// A job one instance holds: `claimToken` proves the lease is still its own when it saves
/// progress, so an instance that lost its lease (paused past it) cannot overwrite its successor's.
public struct ClaimedJob: Sendable {
    public let job: Job
    public let claimToken: String
    /// Runs of the job so far, this one included.
    public let attempts: Int

    public init(job: Job, claimToken: String, attempts: Int) {
        self.job = job
        self.claimToken = claimToken
        self.attempts = attempts
    }
}
