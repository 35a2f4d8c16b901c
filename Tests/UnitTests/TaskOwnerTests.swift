import Logging
import OwnedTasks
import Synchronization
import Testing

/// `TaskOwner`: every task is known while it runs, a failure is logged with the request that
/// started it, and a drain waits for the running ones within its grace and cancels the rest.
@Suite struct TaskOwnerTests {
    /// Keeps what is logged.
    final class Recorder: LogHandler, @unchecked Sendable {
        let lines = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.withLock { $0.append(("\(event.message)", event.metadata ?? [:])) }
        }
    }

    struct Failure: Error {}

    @Test func aFailureIsLoggedWithItsNameAndTheRequestThatSpawnedIt() async {
        let recorder = Recorder()
        let owner = TaskOwner(logger: Logger(label: "test") { _ in recorder })
        TaskOwner.$requestID.withValue("req-42") {
            owner.spawn("a doomed job") { throw Failure() }
        }
        owner.spawn("a cancelled job") { throw CancellationError() }
        await owner.drain(within: .seconds(5))
        let lines = recorder.lines.withLock { $0 }
        #expect(lines.count == 1, "a cancellation is not a failure: \(lines.map(\.message))")
        #expect(lines.first?.metadata["task"] == "a doomed job")
        #expect(lines.first?.metadata["hb.request.id"] == "req-42")
    }

    @Test func aDrainWaitsForRunningWorkAndWhatItSpawns() async {
        let owner = TaskOwner(logger: Logger(label: "test"))
        let done = Atomic<Int>(0)
        owner.spawn("first") {
            try await Task.sleep(for: .milliseconds(50))
            owner.spawn("second, spawned by the first") {
                try await Task.sleep(for: .milliseconds(50))
                done.add(1, ordering: .relaxed)
            }
            done.add(1, ordering: .relaxed)
        }
        #expect(owner.count == 1)
        await owner.drain(within: .seconds(10))
        let finished = done.load(ordering: .relaxed)
        #expect(finished == 2)
        #expect(owner.count == 0)
    }

    @Test func workPastTheGraceIsCancelled() async {
        let owner = TaskOwner(logger: Logger(label: "test"))
        let cancelled = Atomic<Bool>(false)
        owner.spawn("endless") {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.store(true, ordering: .relaxed)
            }
        }
        let started = ContinuousClock.now
        await owner.drain(within: .milliseconds(100))
        let wasCancelled = cancelled.load(ordering: .relaxed)
        #expect(wasCancelled)
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(owner.count == 0)
    }
}
