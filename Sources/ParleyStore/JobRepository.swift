import ParleyCore
import Postgres

/// SQL for `jobs` (migration 0037): background work any instance may claim with a lease.
public struct JobRepository {
    let connection: PostgresConnection

    /// A new job, due at once or from `notBefore` on (a scheduled announcement's).
    public func insert(jobID: String, kind: String, params: String, now: Int64, notBefore: Int64 = 0) throws -> Job {
        try decode(
            connection.query(
                """
                INSERT INTO jobs AS j (job_id, kind, params, created_at, updated_at, claimed_until) VALUES ($1, $2, $3::jsonb, $4, $4, $5)
                RETURNING \(Self.columns)
                """,
                [jobID, kind, params, now, notBefore]))[0]
    }

    public func find(_ jobID: String, kind: String) throws -> Job? {
        try decode(connection.query("SELECT \(Self.columns) FROM jobs j WHERE job_id = $1 AND kind = $2", [jobID, kind])).first
    }

    /// A page of one kind's jobs, newest first, after the position `(createdAt, jobID)` of the
    /// previous page's last.
    public func list(kind: String, after position: (createdAt: Int64, jobID: String)?, limit: Int) throws -> [Job] {
        try decode(
            connection.query(
                """
                SELECT \(Self.columns) FROM jobs j WHERE kind = $1 AND ($2::bigint IS NULL OR (created_at, job_id) < ($2, $3))
                ORDER BY created_at DESC, job_id DESC LIMIT $4
                """,
                [kind, position?.createdAt, position?.jobID ?? "", Int64(limit)]))
    }

    /// Schedules the recurring job of `slot` (its id, so every instance schedules the same one)
    /// unless one of its kind still waits or runs; forgets that kind's jobs finished `keepFor`
    /// ago (a job every few seconds keeps only its last runs).
    public func scheduleRecurring(kind: String, slot: Int64, now: Int64, keepFor: Int64) throws {
        try connection.query(
            """
            WITH old AS (DELETE FROM jobs WHERE kind = $2 AND status IN ('done', 'failed') AND finished_at < $3::bigint - $4::bigint)
            INSERT INTO jobs (job_id, kind, params, created_at, updated_at)
            SELECT $1, $2, '{}', $3, $3 WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = $2 AND status IN ('scheduled', 'processing'))
            ON CONFLICT (job_id) DO NOTHING
            """,
            ["\(kind)-\(slot)", kind, now, keepFor])
    }

    /// Cancels a job no instance has taken yet; false when it is already under way or over.
    public func cancel(_ jobID: String, kind: String, now: Int64) throws -> Bool {
        try connection.query(
            """
            UPDATE jobs SET status = 'canceled', updated_at = $3, finished_at = $3
            WHERE job_id = $1 AND kind = $2 AND status = 'scheduled'
            """,
            [jobID, kind, now]
        ).affectedRows == 1
    }

    /// Cancels the jobs of `kind` whose ids start with `idPrefix` that no instance has taken.
    public func cancelPending(kind: String, idPrefix: String) throws {
        try connection.query(
            "UPDATE jobs SET status = 'canceled' WHERE kind = $1 AND starts_with(job_id, $2) AND status = 'scheduled'", [kind, idPrefix])
    }

    /// Whether a job of `kind` whose id starts with `idPrefix` waits or runs.
    public func hasActive(kind: String, idPrefix: String) throws -> Bool {
        try connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = $1 AND starts_with(job_id, $2) AND status IN ('scheduled', 'processing')) AS active
            """, [kind, idPrefix])[0].decode("active")
    }

    /// Takes the oldest job of `kinds` that nobody holds (scheduled, or processing under a lease
    /// that ran out: its instance died), leased until `now + lease`.
    public func claim(kinds: [String], lease: Int64, now: Int64) throws -> ClaimedJob? {
        let rows = try connection.query(
            """
            UPDATE jobs j SET status = 'processing', claimed_until = $2::bigint + $3::bigint, attempts = j.attempts + 1, updated_at = $2,
                claim_token = md5(random()::text || clock_timestamp()::text)
            FROM (SELECT job_id FROM jobs WHERE status IN ('scheduled', 'processing') AND claimed_until < $2 AND kind = ANY($1)
                ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) due
            WHERE j.job_id = due.job_id
            RETURNING \(Self.columns), j.claim_token, j.attempts
            """,
            [kinds, now, lease])
        guard let row = rows.first else { return nil }
        return ClaimedJob(job: try Self.job(row), claimToken: try row.decode("claim_token"), attempts: try row.decode("attempts"))
    }

    /// Saves where the job stands and renews its lease, in the transaction of the batch that got
    /// it there; throws `LostJobLease` (rolling the batch back) when another instance holds it now.
    public func checkpoint(_ claimed: ClaimedJob, progress: String, lease: Int64, now: Int64) throws {
        let updated = try connection.query(
            """
            UPDATE jobs SET progress = $3::jsonb, claimed_until = $4::bigint + $5::bigint, updated_at = $4
            WHERE job_id = $1 AND claim_token = $2 AND status = 'processing'
            """,
            [claimed.job.jobID, claimed.claimToken, progress, now, lease])
        guard updated.affectedRows == 1 else { throw LostJobLease(jobID: claimed.job.jobID) }
    }

    /// Replaces what the job was asked to do (a finished GDPR deletion keeps only pseudonyms).
    public func replaceParams(_ jobID: String, params: String) throws {
        try connection.query("UPDATE jobs SET params = $2::jsonb WHERE job_id = $1", [jobID, params])
    }

    /// Ends the job (`done` or `failed`) with what it produced, if the lease is still its own.
    public func finish(_ claimed: ClaimedJob, status: Job.Status, result: String?, error: String?, now: Int64) throws {
        let updated = try connection.query(
            """
            UPDATE jobs SET status = $3, result = $4::jsonb, error = $5, finished_at = $6, updated_at = $6, claimed_until = 0,
                claim_token = NULL
            WHERE job_id = $1 AND claim_token = $2 AND status = 'processing'
            """,
            [claimed.job.jobID, claimed.claimToken, status.rawValue, result, error, now])
        guard updated.affectedRows == 1 else { throw LostJobLease(jobID: claimed.job.jobID) }
    }

    /// Gives a failed run's job back, to be claimed again from `until` on; a deferred job (not a
    /// failure) starts its count of attempts anew.
    public func release(_ claimed: ClaimedJob, until: Int64, now: Int64, deferred: Bool = false) throws {
        try connection.query(
            """
            UPDATE jobs SET claimed_until = $3, claim_token = NULL, updated_at = $4, attempts = CASE WHEN $5 THEN 0 ELSE attempts END
            WHERE job_id = $1 AND claim_token = $2
            """,
            [claimed.job.jobID, claimed.claimToken, until, now, deferred])
    }

    static let columns =
        "j.job_id, j.kind, j.params::text AS params, j.status, j.progress::text AS progress, j.result::text AS result, j.error, j.created_at, j.updated_at, j.finished_at"

    private func decode(_ rows: PostgresResult) throws -> [Job] {
        try rows.map(Self.job)
    }

    private static func job(_ row: PostgresRow) throws -> Job {
        Job(
            jobID: try row.decode("job_id"), kind: try row.decode("kind"), params: try row.decode("params"),
            status: try row.decode("status"), progress: try row.decode("progress"), result: try row.decodeIfPresent("result"),
            error: try row.decodeIfPresent("error"), createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"),
            finishedAt: try row.decodeIfPresent("finished_at"))
    }
}

/// Another instance holds the job now: this one stops working on it.
public struct LostJobLease: Error {
    public let jobID: String
}
