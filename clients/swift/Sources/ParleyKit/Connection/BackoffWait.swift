import Foundation

/// The wait before a reconnection, which a returning network cuts short from any thread (the
/// reachability monitor's queue calls `cut` directly: no task is started for it).
final class BackoffWait: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Void, Never>?
    private var cutShort = false

    /// Waits `seconds`, or less when cut short; whether it was cut short (since the last wait).
    func wait(seconds: Double) async -> Bool {
        let timer = DispatchWorkItem { [weak self] in self?.resume() }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = lock.withLock {
                    // Cancelled before the continuation was stored: onCancel found nothing to resume.
                    guard !cutShort, !Task.isCancelled else { return true }
                    waiting = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resume()
        }
        timer.cancel()
        return lock.withLock {
            defer { cutShort = false }
            return cutShort
        }
    }

    /// Ends the current wait (or the next one, at once).
    func cut() {
        lock.withLock { cutShort = true }
        resume()
    }

    private func resume() {
        let continuation = lock.withLock {
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume()
    }
}
