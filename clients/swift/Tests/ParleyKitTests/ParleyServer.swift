import Foundation
import ParleyKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Parley server (`parley serve`, the repository's debug build) on the test database
/// (`PARLEY_TEST_DATABASE_URL`, migrated by scripts/test-swift-client), on a port of its own. It
/// can be killed like a crashed instance and started again on the same port and data.
final class ParleyServer: @unchecked Sendable {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let apiToken = "kit_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")

    let port: Int
    let fileKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    let fileDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("parleykit-\(UUID())").path
    private var process: Process?

    init(port: Int? = nil) async throws {
        self.port = try port ?? Self.freePort()
        try await start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func start() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let database = environment["PARLEY_TEST_DATABASE_URL"] else {
            throw Failure("PARLEY_TEST_DATABASE_URL is not set: run scripts/test-swift-client")
        }
        let binary = environment["PARLEY_BINARY"] ?? Self.repositoryRoot.appendingPathComponent(".build/debug/parley").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"]
        process.environment = environment.merging([
            "DATABASE_URL": database, "PARLEY_API_TOKEN": Self.apiToken, "PARLEY_FILE_KEY": fileKey, "PARLEY_PORT": String(port),
            "PARLEY_HOST": "127.0.0.1", "PARLEY_LOG_LEVEL": "error", "PARLEY_FILE_DIR": fileDirectory,
            "PARLEY_MIGRATIONS_DIR": Self.repositoryRoot.appendingPathComponent("migrations").path,
            "PARLEY_PUBLIC_URL": "http://127.0.0.1:\(port)",
            // The tests send faster than a person: no flood limit.
            "PARLEY_FLOOD_MESSAGES_PER_SECOND": "0",
            // Every test's requests come from 127.0.0.1: no limits per address either.
            "PARLEY_AUTH_FAILURES_PER_MINUTE": "0", "PARLEY_UPLOADS_PER_MINUTE": "0"
        ]) { _, new in new }
        try process.run()
        self.process = process
        for _ in 0..<300 {
            // Its own answer, not another server's on the same port.
            guard process.isRunning else { throw Failure("parley serve exited (\(process.terminationStatus)) on port \(port)") }
            if (try? await raw("GET", "/ready").status) == 200 { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw Failure("parley serve did not start on port \(port)")
    }

    /// As a crash: SIGKILL, no goodbye.
    func kill() {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    func stop() {
        process?.terminate()
        process?.waitUntilExit()
        process = nil
    }

    deinit { stop() }

    // MARK: What the app's backend does with the API token.

    /// A new user and a session token for them.
    func user(_ prefix: String) async throws -> (userId: String, token: String) {
        let userId = "\(prefix)-\(UUID().uuidString.prefix(8))"
        _ = try await admin("POST", "/v3/users", ["user_id": userId, "nickname": prefix.capitalized, "profile_url": ""])
        return (userId, try await token(for: userId))
    }

    /// A new user, signed in with ParleyKit.
    func connected(_ prefix: String) async throws -> (client: ParleyClient, userId: String) {
        let (userId, token) = try await user(prefix)
        let client = ParleyClient(baseURL: baseURL)
        try await client.connect(userId: userId, sessionToken: token)
        return (client, userId)
    }

    /// Alice and Bob signed in, in a group channel of the two that Alice operates.
    func aliceAndBob() async throws -> (alice: ParleyClient, aliceId: String, bob: ParleyClient, bobId: String, channelURL: String) {
        let (alice, aliceId) = try await connected("alice")
        let (bob, bobId) = try await connected("bob")
        var create = GroupChannelCreateParams(userIds: [aliceId, bobId])
        create.operatorIds = [aliceId]
        return (alice, aliceId, bob, bobId, try await alice.groupChannels.create(create).channelURL)
    }

    /// A session token, valid until `expiresAt` (ms) when given.
    func token(for userId: String, expiresAt: Int64? = nil) async throws -> String {
        let issued = try await admin("POST", "/v3/users/\(userId)/token", expiresAt.map { ["expires_at": $0] } ?? [:])
        return issued["token"] as? String ?? ""
    }

    @discardableResult
    func admin(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        let (status, data) = try await raw(method, path, body: body, headers: ["Api-Token": Self.apiToken])
        guard (200..<300).contains(status) else { throw Failure("\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))") }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    func raw(_ method: String, _ path: String, body: [String: Any]? = nil, headers: [String: String] = [:]) async throws -> (
        status: Int, data: Data
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Ports handed out in this process: two servers starting at once could otherwise be given
    /// the same free port, the second then answering nothing and the tests sharing the first.
    nonisolated(unsafe) private static var handedOut: Set<Int> = []
    private static let portLock = NSLock()

    static func freePort() throws -> Int {
        for _ in 0..<100 {
            let port = try probePort()
            let fresh = portLock.withLock { handedOut.insert(port).inserted }
            if fresh { return port }
        }
        throw Failure("no free port")
    }

    private static func probePort() throws -> Int {
        #if os(Linux)
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Failure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds or `seconds` pass; whether it held.
func eventually(within seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 25_000_000)
    }
    return try await condition()
}
