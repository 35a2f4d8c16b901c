import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the test server, for requests no HTTP client would send: trickled
/// headers, malformed chunks, bodies cut off. Reads wait on a Dispatch thread: the server runs
/// in this process, and a read blocking a cooperative thread would starve it.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    /// `receiveBuffer`: the kernel's receive buffer for the connection (SO_RCVBUF, set before
    /// connecting so the window is sized by it), small for a client that stops reading, so that
    /// what the server sends waits in the server rather than in this side's kernel.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        // A local until connected: once `self.fd` is set, a throwing init still runs deinit,
        // which would close the descriptor a second time (by then perhaps another's).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect failed")
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Ends the connection as a client that goes away does (no close frame, no goodbye); the
    /// descriptor is closed when this is freed.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Sends the bytes; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection or `timeout` passes, and
    /// whether it closed.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        await read(timeout: timeout) { _ in false }
    }

    /// What the server sends until `enough` holds for it, it closes the connection, or `timeout`
    /// passes.
    func read(timeout: Duration, until enough: @escaping @Sendable (String) -> Bool) async -> (text: String, closed: Bool) {
        let (bytes, closed) = await readBytes(timeout: timeout) { enough(String(decoding: $0, as: UTF8.self)) }
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    /// The bytes the server sends until `enough` holds for them, it closes the connection, or
    /// `timeout` passes (for WebSocket frames, which are not text).
    func readBytes(timeout: Duration, until enough: @escaping @Sendable ([UInt8]) -> Bool) async -> (bytes: [UInt8], closed: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingRead(timeout: timeout, until: enough)) }
        }
    }

    private func blockingRead(timeout: Duration, until enough: ([UInt8]) -> Bool) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let millis = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, millis) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (received, true) }
            received.append(contentsOf: buffer[0..<count])
            if enough(received) { break }
        }
        return (received, false)
    }
}
