import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17, points 2 and 3: one structured line per request, JSON when asked, never a secret;
/// the client address behind trusted proxies only; log writes that never block a request.
@Suite struct RequestLogTests {
    @Test func eachRequestIsOneJSONLineWithoutSecrets() async throws {
        // A database of its own: a server process on the common one would read the event log
        // of every other test running meanwhile.
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let log = try LogFile()
                let process = try await ServerProcess(
                    environment: [
                        "DATABASE_URL": database, "PARLEY_LOG_FORMAT": "json", "PARLEY_LOG_LEVEL": "info",
                        "PARLEY_TRUSTED_PROXIES": "127.0.0.0/8, ::1"
                    ],
                    standardError: log.descriptor)
                defer { process.stop() }
                let cast = try await api.cast("logged", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let token = cast.tokens[cast[0]]!
                let secretText = "do-not-log-this-\(UUID())"
                let sent = try await process.request(
                    "POST", "/v3/group_channels/\(channel)/messages", headers: ["Session-Token": token, "X-Request-Id": "proxy-id-1"],
                    body: #"{"message":"\#(secretText)"}"#)
                #expect(sent.status == 201)
                let looked = try await process.request(
                    "GET", "/v3/users/\(cast[1])?session_token=\(token)",
                    headers: [
                        "Authorization": "Bearer \(token)", "X-Forwarded-For": "203.0.113.50, 198.51.100.7", "X-Forwarded-Proto": "https"
                    ]
                )
                #expect(looked.status == 200)
                let forwarded = try await process.request(
                    "GET", "/v3/users/\(cast[1])",
                    headers: ["Api-Token": TestServer.apiToken, "Forwarded": #"for="[2001:db8::17]:4711";proto=https"#])
                #expect(forwarded.status == 200)

                let lines = try await log.jsonLines(count: 3) { $0["message"] as? String == "request" }
                for line in lines {
                    for field in ["time", "level", "method", "route", "status", "duration_ms", "request_id", "caller", "client", "scheme"] {
                        #expect(line[field] != nil, "no \(field) in \(line)")
                    }
                    #expect(Double(line["duration_ms"] as? String ?? "") != nil)
                }
                let send = try #require(lines.first { $0["method"] as? String == "POST" })
                #expect(send["route"] as? String == "/v3/group_channels/{channel_url}/messages")
                #expect(send["status"] as? String == "201")
                #expect(send["caller"] as? String == cast[0])
                #expect(send["request_id"] as? String == "proxy-id-1")
                #expect(send["client"] as? String == "127.0.0.1")
                let lookup = try #require(lines.first { $0["caller"] as? String == cast[0] && $0["method"] as? String == "GET" })
                #expect(lookup["route"] as? String == "/v3/users/{user_id}")
                #expect(lookup["client"] as? String == "198.51.100.7", "the nearest untrusted hop, not what the client claimed")
                #expect(lookup["scheme"] as? String == "https")
                let byForwarded = try #require(lines.first { $0["caller"] as? String == "api" })
                #expect(byForwarded["client"] as? String == "2001:db8::17")
                let everything = try log.text()
                for secret in [token, TestServer.apiToken, secretText, channel] {
                    #expect(!everything.contains(secret), "the log holds a secret or a path value")
                }
            }
        }
    }

    @Test func forwardedHeadersFromAnUntrustedPeerAreIgnored() async throws {
        try await OwnDatabase.with { database in
            let log = try LogFile()
            // Trusts a network the test's connections do not come from.
            let process = try await ServerProcess(
                environment: [
                    "DATABASE_URL": database, "PARLEY_LOG_FORMAT": "json", "PARLEY_LOG_LEVEL": "info",
                    "PARLEY_TRUSTED_PROXIES": "10.0.0.0/8"
                ],
                standardError: log.descriptor)
            defer { process.stop() }
            let spoofed = try await process.request(
                "GET", "/health",
                headers: ["X-Forwarded-For": "10.0.0.9", "X-Forwarded-Proto": "https", "Forwarded": "for=10.0.0.8;proto=https"])
            #expect(spoofed.status == 200)
            let line = try #require(try await log.jsonLines(count: 1) { $0["route"] as? String == "/health" }.first)
            #expect(line["client"] as? String == "127.0.0.1")
            #expect(line["scheme"] as? String == "http")
            #expect(line["caller"] as? String == "-")
        }
    }

    /// Standard error is a pipe nobody reads (a stalled log collector): requests go on at full
    /// speed, and lines past the writer's buffer are dropped, not waited for. Then the reader
    /// closes the pipe, and the server goes on.
    @Test func aStalledLogReaderBlocksNoRequest() async throws {
        try await OwnDatabase.with { database in
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            // The smallest pipe (one page): a few requests' lines fill it.
            #expect(fcntl(ends[1], Self.setPipeSize, 4096) >= 4096)
            let process: ServerProcess
            do {
                defer { close(ends[1]) }
                process = try await ServerProcess(
                    environment: ["DATABASE_URL": database, "PARLEY_LOG_LEVEL": "info"], standardError: ends[1])
            }
            defer { process.stop() }
            // Each line is about 190 bytes: ten times what the pipe holds. A blocking write would
            // leave a request unanswered within its 10 s.
            let connection = try RawConnection(port: process.port)
            for index in 0..<200 {
                #expect(connection.send("GET /health HTTP/1.1\r\nHost: parley\r\n\r\n"))
                let answer = await connection.read(timeout: .seconds(10)) { $0.hasSuffix(#"{"status":"ok"}"#) }
                guard answer.text.hasPrefix("HTTP/1.1 200") else {
                    Issue.record("request \(index) got no answer: \(answer.text)")
                    return
                }
            }
            #expect(try await process.request("GET", "/health").status == 200)
            // The reader goes away for good: writing is an error now, not the end of the server.
            close(ends[0])
            for _ in 0..<50 { #expect(try await process.request("GET", "/health").status == 200) }
            #expect(process.exited == nil)
        }
    }

    /// Linux's `F_SETPIPE_SZ` (not exported to Swift by Glibc).
    static let setPipeSize: Int32 = 1031
}

/// A temporary file a server process logs into.
private final class LogFile: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("parley-log-\(UUID()).log").path
    let descriptor: Int32

    init() throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(path)") }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    func text() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The JSON lines matching `match`, once there are `count` of them (every line must be JSON).
    func jsonLines(count: Int, _ match: @escaping ([String: Any]) -> Bool) async throws -> [[String: Any]] {
        var found: [[String: Any]] = []
        _ = try await eventually(within: .seconds(10)) {
            found = try self.text().split(separator: "\n").map { line in
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    throw TestFailure("not a JSON object: \(line)")
                }
                return object
            }.filter(match)
            return found.count >= count
        }
        return found
    }
}
