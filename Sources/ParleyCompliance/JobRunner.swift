import Foundation
import Logging
import OwnedTasks
import ParleyCore
import ParleyStore
import ServiceLifecycle
import Synchronization

/// How background jobs are taken and held (API.md §14).
public struct JobSettings: Sendable {
    public var enabled = true
    /// How often an idle instance looks for a job.
    public var pollInterval: Duration = .seconds(1)
    /// How long a claim holds without a saved batch; past it another instance takes the job over.
    public var lease: Duration = .seconds(60)
    /// Runs of a job that failed before it is given up (`failed`); a lost database is not a failure.
    public var maxAttempts = 5
    /// How long a job that failed waits before its next run.
    public var retryDelay: Duration = .seconds(30)
    /// Rows (messages) a batch of a job handles in one transaction.
    public var batchSize = 200
    /// How long an access archive or a data export can be downloaded after its job finished.
    public var archiveLifetime: Duration = .seconds(7 * 24 * 3600)
    /// How old messages get before retention removes them (API.md §14.3); nil keeps them.
    public var messageRetention: Duration?
    /// How often retention looks for messages past it.
    public var retentionInterval: Duration = .seconds(600)
    /// How often channels' own retention and disappearing messages are carried out (API.md §14.3).
    public var channelRetentionInterval: Duration = .seconds(15)
    /// How often an instance writes the activity it saw and samples the connection peak (API.md §14.5).
    public var statisticsInterval: Duration = .seconds(10)

    public init() {}
}

/// What one kind of job does. `run` goes on from `job.progress`, saving its progress with each
/// batch (`RunningJob.step`), so that whichever instance runs it next repeats at most one batch.
public protocol JobHandler: Sendable {
    var kind: String { get }
    /// Does the work; returns the job's result (JSON text).
    func run(_ job: RunningJob) async throws -> String
}

/// Thrown by a handler whose job cannot go on before `until` (an announcement's daily pause): the
/// job is given back, due again then, and no attempt is counted.
public struct JobDeferral: Error {
    public let until: Int64

    public init(until: Int64) { self.until = until }
}

/// A job that recurs: one is scheduled every `interval` (unless one is still waiting or running).
public struct RecurringJob: Sendable {
    public let kind: String
    public let interval: Duration

    public init(kind: String, interval: Duration) {
        self.kind = kind
        self.interval = interval
    }
}

/// Every instance runs one: it schedules the recurring jobs that are due, claims due jobs (a
/// lease in PostgreSQL, so two instances never run one at once and a dead instance's job is taken
/// over when its lease runs out) and runs them one at a time.
public final class JobRunner: Service, Sendable {
    let store: Store
    let clock: Clock
    let handlers: [String: any JobHandler]
    let settings: JobSettings
    let recurring: [RecurringJob]
    let logger: Logger
    /// The slot each recurring job was last scheduled for by this instance (a shortcut only: the
    /// database decides, by the job's id, whether the slot's job exists).
    private let scheduled = Mutex<[String: Int64]>([:])

    public init(
        store: Store, clock: Clock, handlers: [any JobHandler], recurring: [RecurringJob] = [], settings: JobSettings, logger: Logger
    ) {
        self.store = store
        self.clock = clock
        self.handlers = Dictionary(uniqueKeysWithValues: handlers.map { ($0.kind, $0) })
        self.recurring = recurring
        self.settings = settings
        self.logger = logger
    }

    public func run() async throws {
        JobMetrics.prepare(kinds: handlers.keys)
        await PollingLoop.run(enabled: settings.enabled, every: settings.pollInterval) { await self.runNext() }
    }

    /// Claims one due job and runs it to its end (or until it fails); false when none was due.
    @discardableResult
    public func runNext() async -> Bool {
        let (kinds, lease, now) = (Array(handlers.keys), settings.lease.milliseconds, clock.nowMillis)
        await scheduleRecurring(now: now)
        let claimed: ClaimedJob
        do {
            guard let job = try await store.transaction({ try $0.jobs.claim(kinds: kinds, lease: lease, now: now) }) else { return false }
            claimed = job
        } catch {
            logger.warning("claiming a job failed", metadata: ["error": "\(error)"])
            return false
        }
        guard let handler = handlers[claimed.job.kind] else { return true }
        let running = RunningJob(claimed: claimed, store: store, clock: clock, lease: lease)
        let started = ContinuousClock.now
        let outcome: JobMetrics.Outcome?
        do {
            let result = try await handler.run(running)
            let now = clock.nowMillis
            try await store.transaction { try $0.jobs.finish(claimed, status: .done, result: result, error: nil, now: now) }
            outcome = .done
        } catch let deferral as JobDeferral {
            let now = clock.nowMillis
            _ = try? await store.transaction { try $0.jobs.release(claimed, until: deferral.until, now: now, deferred: true) }
            outcome = .deferred
        } catch is LostJobLease {
            logger.warning("another instance took over a job", metadata: ["job_id": "\(claimed.job.jobID)"])
            outcome = .lost
        } catch is CancellationError {
            // Shutting down: the lease runs out and another instance goes on from the last batch.
            outcome = nil
        } catch {
            outcome = await failed(claimed, error)
        }
        if let outcome {
            JobMetrics.finished(claimed.job.kind, outcome).increment()
            JobMetrics.duration(claimed.job.kind).record(duration: ContinuousClock.now - started)
        }
        return true
    }

    /// Schedules each recurring job whose slot (`now / interval`) this instance has not yet seen.
    private func scheduleRecurring(now: Int64) async {
        for job in recurring {
            let slot = now / job.interval.milliseconds
            guard scheduled.withLock({ $0[job.kind] }) != slot else { continue }
            do {
                // A week of runs, or the last hundred when it runs more often than every 100 minutes.
                let keepFor = min(604_800_000, 100 * job.interval.milliseconds)
                try await store.transaction { try $0.jobs.scheduleRecurring(kind: job.kind, slot: slot, now: now, keepFor: keepFor) }
                scheduled.withLock { $0[job.kind] = slot }
            } catch {
                logger.warning("scheduling a recurring job failed", metadata: ["kind": "\(job.kind)", "error": "\(error)"])
            }
        }
    }

    /// A failed run: tried again after `retryDelay`, given up after `maxAttempts` runs. A lost
    /// database is retried without counting (the lease simply runs out). Returns which.
    private func failed(_ claimed: ClaimedJob, _ error: any Error) async -> JobMetrics.Outcome {
        logger.error("a job failed", metadata: ["job_id": "\(claimed.job.jobID)", "kind": "\(claimed.job.kind)", "error": "\(error)"])
        if let error = error as? ParleyError, error == .unavailable { return .retried }
        let (now, attempts, retry) = (clock.nowMillis, claimed.attempts, settings.retryDelay.milliseconds)
        let giveUp = attempts >= settings.maxAttempts
        _ = try? await store.transaction { repositories in
            if giveUp {
                try repositories.jobs.finish(claimed, status: .failed, result: nil, error: "\(error)", now: now)
            } else {
                try repositories.jobs.release(claimed, until: now + retry, now: now)
            }
        }
        return giveUp ? .failed : .retried
    }
}

/// A job this instance holds, and the way its handler saves progress.
public struct RunningJob: Sendable {
    public let claimed: ClaimedJob
    let store: Store
    public let clock: Clock
    let lease: Int64

    public var job: Job { claimed.job }

    /// The saved progress, or a fresh one for a job that starts.
    public func progress<P: Codable>(_ type: P.Type = P.self, fresh: P) throws -> P {
        job.progress == "{}" ? fresh : try JSONDecoder().decode(P.self, from: Data(job.progress.utf8))
    }

    /// Runs one batch in a transaction that also saves `progress` as the batch leaves it (and
    /// renews the lease); throws `LostJobLease` when another instance holds the job now.
    public func step<T: Sendable, P: Codable & Sendable>(
        _ body: @escaping @Sendable (Repositories, inout P) throws -> T, from progress: P
    ) async throws -> (T, P) {
        let (claimed, lease, now) = (claimed, lease, clock.nowMillis)
        try Task.checkCancellation()
        return try await store.transaction { repositories in
            var next = progress
            let result = try body(repositories, &next)
            let text = String(decoding: try JSONEncoder().encode(next), as: UTF8.self)
            try repositories.jobs.checkpoint(claimed, progress: text, lease: lease, now: now)
            return (result, next)
        }
    }
}
