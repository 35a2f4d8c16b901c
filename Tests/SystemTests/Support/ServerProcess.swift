import Foundation
import ParleyFiles
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `parley serve` executable of this build, run as a process of its own on the test
/// database: an instance that can be killed like a crashed one (`kill -9`).
final class ServerProcess: Sendable {
    let port: Int
    private let child: ChildProcess

    /// - Parameters:
    ///   - environment: settings of this process beyond the test's own.
    ///   - standardError: where its log goes (a file or pipe descriptor); the test's own by default.
    init(environment extra: [String: String] = [:], standardError: Int32 = 2) async throws {
        try await Migrations.shared.ensureApplied()
        // `swift test` builds the executable next to the test bundle.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("parley")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TestFailure("no parley executable at \(binary.path): build it with swift build")
        }
        port = try Self.freePort()
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = try TestServer.databaseURL
        environment["PARLEY_API_TOKEN"] = TestServer.apiToken
        environment["PARLEY_FILE_KEY"] = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        environment["PARLEY_PORT"] = String(port)
        environment["PARLEY_HOST"] = "127.0.0.1"
        environment["PARLEY_LOG_LEVEL"] = "error"
        // As on the in-process servers: jobs only where a test of them asks for them.
        environment["PARLEY_JOBS"] = "false"
        // The tests' requests all come from 127.0.0.1 (AddressLimitTests sets limits in process).
        environment["PARLEY_AUTH_FAILURES_PER_MINUTE"] = "0"
        environment["PARLEY_UPLOADS_PER_MINUTE"] = "0"
        environment["PARLEY_MIGRATIONS_DIR"] = TestServer.packageRoot.appendingPathComponent("migrations").path
        environment["PARLEY_FILE_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("parley-proc-\(UUID())").path
        environment.merge(extra) { _, new in new }
        let child = try ChildProcess.spawn(binary.path, ["serve"], environment: environment, standardError: standardError)
        self.child = child
        let ready = try await eventually(within: .seconds(30), every: .milliseconds(100)) { Self.answers(port: self.port) }
        guard ready else {
            child.kill()
            _ = child.wait()
            throw TestFailure("parley serve did not start on port \(port)")
        }
    }

    /// As a crash: no shutdown, no goodbye to the database.
    /// The process's id (for its memory: `ProcessMemory.residentBytes(of:)`).
    var pid: pid_t { child.pid }

    func kill() {
        child.kill(SIGKILL)
        let termination = child.wait()
        ended.withLock { $0 = termination }
    }

    /// Sends SIGTERM and returns at once; `exited` tells when it is gone.
    func signalStop() {
        child.kill(SIGTERM)
    }

    /// How the process ended, once it has (kept: a child is reaped only once).
    var exited: ChildProcess.Termination? {
        ended.withLock { ended in
            if ended == nil { ended = child.poll() }
            return ended
        }
    }
    private let ended = Mutex<ChildProcess.Termination?>(nil)

    /// As an operator stops it (SIGTERM): how the process ended.
    @discardableResult
    func stop() -> ChildProcess.Termination? {
        guard exited == nil else { return nil }
        child.kill(SIGTERM)
        let termination = child.wait()
        ended.withLock { $0 = termination }
        return termination
    }

    /// One request on a connection of its own (`Connection: close`): the status and the whole answer.
    /// `body` is JSON unless `headers` name another `Content-Type`.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil, port: Int? = nil)
        async throws -> (status: Int, text: String)
    {
        try await request(method, path, headers: headers, bytes: body.map { Array($0.utf8) }, port: port)
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], bytes body: [UInt8]?, port: Int? = nil)
        async throws -> (status: Int, text: String)
    {
        let connection = try RawConnection(port: port ?? self.port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: parley\r\nConnection: close\r\n"
        var headers = headers
        if let body {
            if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
            headers["Content-Length"] = String(body.count)
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        guard connection.send(Array((head + "\r\n").utf8) + (body ?? [])) else {
            throw TestFailure("could not send to port \(port ?? self.port)")
        }
        let answer = await connection.readUntilClosed(timeout: .seconds(20))
        guard let status = Int(answer.text.dropFirst(9).prefix(3)) else { throw TestFailure("no HTTP answer: \(answer.text)") }
        return (status, answer.text)
    }

    /// A port for a process's listener, handed out once in this test run and below the kernel's
    /// ephemeral range (32768–60999 here). A port found by binding 0 and closing again could be
    /// taken before the process binds it, by an in-process server bound to port 0 or by another
    /// process of the run; the readiness check then found someone else's server, and the test
    /// talked to an instance another test was stopping.
    static func freePort() throws -> Int {
        for _ in 0..<1_000 {
            let port = 20_000 + nextPort.add(1, ordering: .relaxed).newValue % 12_000
            if canBind(port) { return port }
        }
        throw TestFailure("no free port between 20000 and 32000")
    }
    private static let nextPort = Atomic<Int>(Int.random(in: 0..<12_000))

    private static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether something accepts connections on the port.
    private static func answers(port: Int) -> Bool {
        guard let connection = try? RawConnection(port: port) else { return false }
        return connection.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    }
}
