import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a descriptor to end of file on whatever thread calls `run`, keeping at most `cap` bytes.
final class OutputReader: @unchecked Sendable {
    private let fd: Int32
    private let cap: Int
    private let onOverflow: @Sendable () -> Void
    private let done = DispatchSemaphore(value: 0)
    // Written by run() before it signals `done`, read by result() after waiting on it.
    private var data: [UInt8] = []
    private var overflowed = false

    init(fd: Int32, cap: Int, onOverflow: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.cap = cap
        self.onOverflow = onOverflow
    }

    func run() {
        defer { done.signal() }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if n == 0 { return }
            if data.count + n > cap {
                overflowed = true
                data = []
                onOverflow()
                return
            }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// Whether run() finished (end of file, error or overflow) by the deadline.
    func wait(until deadline: DispatchTime) -> Bool {
        guard done.wait(timeout: deadline) == .success else { return false }
        done.signal()  // leave it signalled for result()
        return true
    }

    func result() -> (data: [UInt8], overflowed: Bool) {
        done.wait()
        done.signal()
        return (data, overflowed)
    }
}
