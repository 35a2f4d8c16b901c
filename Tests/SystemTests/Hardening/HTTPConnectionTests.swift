import Foundation
import HTTPWire
import ParleyContainer
import Testing

/// Issue 10.3 and 10.4: slow clients are cut off, declared bodies over the limit are refused
/// before they are read, and malformed or abandoned bodies are the client's fault.
@Suite struct HTTPConnectionTests {
    /// The one timeout a test is about is a second; every other is a minute, so a connection that
    /// closes within the test's generous wait (which a machine busy with the whole suite needs)
    /// was closed by that timeout and no other.
    private func only(_ timeout: WritableKeyPath<HTTPTimeouts, Duration> & Sendable) -> @Sendable (inout Config) -> Void {
        { config in
            config.httpTimeouts.header = .seconds(60)
            config.httpTimeouts.bodyProgress = .seconds(60)
            config.httpTimeouts.idle = .seconds(60)
            config.httpTimeouts.linger = .milliseconds(300)
            config.httpTimeouts[keyPath: timeout] = .seconds(1)
        }
    }

    @Test func aTrickledHeaderIsCutOffAtTheHeaderTimeout() async throws {
        try await TestServer.withAPI(only(\.header)) { api in
            let connection = try api.connection()
            connection.send("GET /health HTTP/1.1\r\n")
            // One byte every 100 ms: never idle, never done, for up to 20 s.
            var closed = false
            for byte in String(repeating: "X-Padding: slowloris\r\n", count: 10).utf8 where !closed {
                connection.send([byte])
                closed = await connection.readUntilClosed(timeout: .milliseconds(100)).closed
            }
            #expect(closed, "cut off by the header timeout")
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        try await TestServer.withAPI(only(\.idle)) { api in
            let idle = try api.connection()
            #expect(idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
            let (answer, closedIdle) = await idle.readUntilClosed(timeout: .seconds(20))
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(closedIdle, "closed after the idle timeout")
        }
    }

    @Test func aStalledBodyIsClosed() async throws {
        try await TestServer.withAPI(only(\.bodyProgress)) { api in
            let stalled = try api.connection()
            #expect(
                stalled.send(
                    "POST /v3/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user_id\""))
            let (_, closedStalled) = await stalled.readUntilClosed(timeout: .seconds(20))
            #expect(closedStalled, "closed when the body stopped arriving")
        }
    }

    @Test func pipelinedRequestsAreAnsweredAndTheConnectionStays() async throws {
        try await TestServer.withAPI({ $0.httpTimeouts.idle = .seconds(30) }) { api in
            let connection = try api.connection()
            let body = #"{"user_id":"\#(uniqueID("piped"))","nickname":"p"}"#
            connection.send(
                "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /v3/users HTTP/1.1\r\nHost: x\r\nApi-Token: \(TestServer.apiToken)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let (answers, closed) = await connection.read(timeout: .seconds(10)) { $0.components(separatedBy: "HTTP/1.1 ").count == 4 }
            #expect(answers.components(separatedBy: "HTTP/1.1 200").count == 3, "\(answers)")
            #expect(answers.contains("HTTP/1.1 201"))
            #expect(!closed)
            #expect(await !connection.readUntilClosed(timeout: .milliseconds(500)).closed, "kept alive")
        }
    }

    @Test func aDeclaredLengthOverTheLimitIs413AtOnce() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("huge", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            for (path, type) in [
                ("/v3/users", "application/json"), ("/v3/group_channels/\(url)/messages", "multipart/form-data; boundary=b")
            ] {
                let connection = try api.connection()
                let credential = path == "/v3/users" ? "Api-Token: \(TestServer.apiToken)" : "Session-Token: \(users.tokens[users[0]]!)"
                #expect(
                    connection.send(
                        "POST \(path) HTTP/1.1\r\nHost: x\r\n\(credential)\r\nContent-Type: \(type)\r\nContent-Length: 10737418240\r\n\r\n")
                )
                // Returns at the close; the bound only needs to hold on a loaded CI machine.
                let (answer, closed) = await connection.readUntilClosed(timeout: .seconds(20))
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(path): \(answer)")
                #expect(answer.lowercased().contains("connection: close"))
                #expect(answer.contains("400110"))
                #expect(closed, "the rest of the body is not read")
            }
        }
    }

    @Test func malformedChunkedBodiesAre400() async throws {
        let records = LogRecords()
        try await TestServer.withAPI(logger: records.logger()) { api in
            let head =
                "POST /v3/users HTTP/1.1\r\nHost: x\r\nApi-Token: \(TestServer.apiToken)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            for body in [
                "zz\r\nabc\r\n0\r\n\r\n", "-1\r\nabc\r\n0\r\n\r\n", "ffffffffffffffffffff\r\nabc\r\n0\r\n\r\n", "3\r\nabcX0\r\n\r\n",
                "3\r\nabc\r\n0\r\nbad trailer\r\n\r\n"
            ] {
                let connection = try api.connection()
                #expect(connection.send(head + body))
                // The answer's head, however long a machine busy with the whole suite takes to send it.
                let answer = await connection.read(timeout: .seconds(20)) { $0.contains("\r\n\r\n") }.text
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(body.debugDescription): \(answer)")
            }
            #expect(!records.all.contains { $0.level >= .error }, "\(records.all)")
        }
    }

    @Test func aClientLeavingMidBodyIsNotAnError() async throws {
        let records = LogRecords()
        try await TestServer.withAPI(logger: records.logger()) { api in
            let users = try await api.cast("leaver", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            do {
                let connection = try api.connection()
                connection.send(
                    "POST /v3/users HTTP/1.1\r\nHost: x\r\nApi-Token: \(TestServer.apiToken)\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"user_id\""
                )
            }
            do {
                let connection = try api.connection()
                connection.send(
                    "POST /v3/group_channels/\(url)/messages HTTP/1.1\r\nHost: x\r\nSession-Token: \(users.tokens[users[0]]!)\r\n"
                        + "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n"
                        + "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n"
                        + String(repeating: "x", count: 5000))
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await api.get("/health", as: .none).status == 200)
            #expect(!records.all.contains { $0.level >= .error }, "\(records.all)")
        }
    }
}
