import Synchronization

/// A limit on how many child processes (ffmpeg) run at once: each holds a slot while it runs,
/// and work that finds none free within its time limit goes without.
public final class ProcessSlots: Sendable {
    private let free: Mutex<Int>

    public init(_ count: Int) {
        free = Mutex(max(1, count))
    }

    /// Runs `body` in a slot, or returns nil when none came free within `patience`.
    func withSlot<T: Sendable>(patience: Duration, _ body: () async throws -> T) async throws -> T? {
        let deadline = ContinuousClock.now + patience
        // Polls: slots are few and only contended when many videos arrive at once.
        while !take() {
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { free.withLock { $0 += 1 } }
        return try await body()
    }

    private func take() -> Bool {
        free.withLock { free in
            guard free > 0 else { return false }
            free -= 1
            return true
        }
    }
}
