import CLibPQ
import Foundation
import Synchronization

/// Where a connection is connected, and whether it waits for the server, as the
/// `RoundTripWatchdog` sees it (issue 51.1).
///
/// The connection's own thread marks each round trip's start and end; the watchdog's thread
/// reads the marks and may cut the connection's socket. Both happen under one lock, and the
/// socket is identified by its inode as well as its number, so a cut can never reach a socket
/// that libpq closed meanwhile (on a lost connection it closes its own) and the number of which
/// another connection reused.
final class RoundTripWatch: Sendable {
    /// A server as libpq names it: host (or socket directory) and port.
    struct Server: Hashable, Sendable, CustomStringConvertible {
        let host: String
        let port: String
        var description: String { "\(host):\(port)" }
    }

    struct State {
        var socket: Int32 = -1
        var inode: UInt = 0
        var server: Server?
        var startedAt: ContinuousClock.Instant?
        /// Round trips may nest (a statement prepared inside a pipeline's): the outermost counts.
        var depth = 0
    }

    /// The connection's parameters (for a probe of its server).
    let conninfo: String
    /// Whether there is another server to go to (the conninfo names several, or the caller falls
    /// back to the primary): only then is a server that stops answering probed and given up
    /// (with none, the hard deadline is all there is to do).
    let hasAlternatives: Bool
    /// A round trip older than this is cut whatever the server's state (nil: never): the
    /// session's statement timeout, and a margin, since the server enforces that timeout itself
    /// only while it runs.
    let hardDeadline: Duration?
    private let state = Mutex(State())

    init(conninfo: String, hasFallback: Bool, hardDeadline: Duration?) {
        self.conninfo = conninfo
        self.hasAlternatives = hasFallback || HostOrder.hasAlternatives(conninfo)
        self.hardDeadline = hardDeadline
    }

    var snapshot: State { state.withLock { $0 } }

    /// After a connection (or a reconnection) was made.
    func connected(_ handle: OpaquePointer) {
        let socket = PQsocket(handle)
        let server = Server(host: PQhost(handle).map { String(cString: $0) } ?? "", port: PQport(handle).map { String(cString: $0) } ?? "")
        state.withLock { state in
            (state.socket, state.inode, state.server) = (socket, Self.inode(of: socket), server)
        }
        RoundTripWatchdog.shared.reached(server)
    }

    /// Before libpq closes the socket (a reset, the end of the connection).
    func disconnecting() {
        state.withLock { state in (state.socket, state.inode, state.server) = (-1, 0, nil) }
    }

    func roundTripStarts() {
        let now = ContinuousClock.now
        state.withLock { state in
            state.depth += 1
            if state.depth == 1 { state.startedAt = now }
        }
    }

    func roundTripEnds() {
        state.withLock { state in
            state.depth -= 1
            if state.depth == 0 { state.startedAt = nil }
        }
    }

    /// Shuts the socket down, so that whatever waits on it (a round trip, a LISTEN's poll) fails
    /// at once; the connection is then poisoned and replaced as any lost one is.
    func cut() {
        state.withLock { state in
            guard state.socket >= 0, Self.inode(of: state.socket) == state.inode else { return }
            _ = shutdown(state.socket, Int32(SHUT_RDWR))
        }
    }

    private static func inode(of socket: Int32) -> UInt {
        var status = stat()
        guard socket >= 0, fstat(socket, &status) == 0 else { return 0 }
        return UInt(status.st_ino)
    }
}
