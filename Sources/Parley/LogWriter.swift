import Dispatch
import Foundation
import Synchronization

/// Writes log lines to standard error from a thread of its own, so that a slow or blocked
/// stderr (a full pipe, a stalled log collector) never holds up a request: `enqueue` only
/// appends to a buffer. Past `limit` bytes waiting, lines are dropped and counted, and the
/// count is written once the writer catches up.
final class LogWriter: Sendable {
    static let standardError = LogWriter(descriptor: 2, limit: 8 << 20)

    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var writerIsWaiting = false
    }

    private let descriptor: Int32
    private let limit: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled after each write, for `flush`.
    private let written = DispatchSemaphore(value: 0)

    private init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
        let thread = Thread { [self] in self.run() }
        thread.name = "parley-log-writer"
        thread.start()
    }

    func enqueue(_ line: [UInt8]) {
        let wakeWriter = state.withLock { state -> Bool in
            guard state.pending.count + line.count <= limit else {
                state.dropped += 1
                return false
            }
            state.pending.append(contentsOf: line)
            defer { state.writerIsWaiting = false }
            return state.writerIsWaiting
        }
        if wakeWriter { wake.signal() }
    }

    /// Waits (up to `timeout`) until what was enqueued before has been written; for the end of
    /// the process.
    func flush(timeout: Duration = .seconds(2)) {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ !$0.pending.isEmpty }), ContinuousClock.now < deadline {
            wake.signal()
            _ = written.wait(timeout: .now() + .milliseconds(50))
        }
    }

    private func run() {
        while true {
            let (bytes, dropped) = state.withLock { state -> ([UInt8], Int) in
                if state.pending.isEmpty && state.dropped == 0 {
                    state.writerIsWaiting = true
                    return ([], 0)
                }
                defer { state.dropped = 0 }
                return (Self.take(&state.pending), state.dropped)
            }
            if bytes.isEmpty && dropped == 0 {
                wake.wait()
                continue
            }
            write(bytes)
            if dropped > 0 { write(Array("log writer: \(dropped) lines dropped (standard error could not keep up)\n".utf8)) }
            written.signal()
        }
    }

    private static func take(_ pending: inout [UInt8]) -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &pending)
        pending.reserveCapacity(min(taken.count, 64 << 10))
        return taken
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result > 0 {
                    offset += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return  // stderr is gone: nothing better to do with the line
                }
            }
        }
    }
}
