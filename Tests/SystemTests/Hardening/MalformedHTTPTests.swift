import Foundation
import ParleyContainer
import Testing

/// Issue 29.14: a request NIO's HTTP parser refuses is answered at once (400, 431 for a header
/// over the limit) with the error body, and the connection closes; it is not left open until the
/// header timeout.
@Suite struct MalformedHTTPTests {
    /// Every timeout is a minute: a connection that closes within the test's wait was closed by
    /// the answer to its malformed request.
    private static func longTimeouts(_ config: inout Config) {
        config.httpTimeouts.header = .seconds(60)
        config.httpTimeouts.bodyProgress = .seconds(60)
        config.httpTimeouts.idle = .seconds(60)
    }

    /// The answer to `bytes`, and whether the server closed the connection after it.
    private func answer(to bytes: [UInt8], _ api: API) async throws -> (text: String, closed: Bool) {
        let connection = try api.connection()
        connection.send(bytes)
        return await connection.readUntilClosed(timeout: .seconds(15))
    }

    private func expectRefused(
        _ answer: (text: String, closed: Bool), status: String, code: String, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.text.hasPrefix("HTTP/1.1 \(status)"), "\(what): \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.text.lowercased().contains("connection: close"), "\(what)", sourceLocation: sourceLocation)
        #expect(answer.text.contains(#""code":\#(code)"#), "\(what): \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.closed, "\(what): closed at once", sourceLocation: sourceLocation)
    }

    @Test func malformedRequestsAre400AndClosed() async throws {
        try await TestServer.withAPI(Self.longTimeouts) { api in
            let cases: [(String, String)] = [
                ("both lengths", "POST /v3/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                ("two lengths", "POST /v3/users HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
                ("unknown method", "FROBNICATE /health HTTP/1.1\r\nHost: x\r\n\r\n"),
                ("HTTP/0.9", "GET /health\r\n\r\n"),
                ("NUL in the path", "GET /hea\u{0}lth HTTP/1.1\r\nHost: x\r\n\r\n"),
                ("a space in the header name", "GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n")
            ]
            for (what, request) in cases {
                expectRefused(try await answer(to: Array(request.utf8), api), status: "400", code: "400111", what)
            }
        }
    }

    @Test func aHeaderOver80KiBIs431AndClosed() async throws {
        try await TestServer.withAPI(Self.longTimeouts) { api in
            let request = "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n"
            expectRefused(try await answer(to: Array(request.utf8), api), status: "431", code: "400110", "200 KB header")
        }
    }

    /// A TLS client that found the plain port: its ClientHello is no HTTP method.
    @Test func aTLSHelloIs400AndClosed() async throws {
        try await TestServer.withAPI(Self.longTimeouts) { api in
            let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x2F, 0x01, 0x00, 0x00, 0x2B, 0x03, 0x03] + Array(repeating: 0x42, count: 32)
            let answer = try await answer(to: hello, api)
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text)")
            #expect(answer.closed)
        }
    }

    /// A malformed request after a good one on a keep-alive connection, sent alone or pipelined
    /// behind it: the good one is answered first.
    @Test func aMalformedLaterRequestIsAnsweredAfterTheEarlierOne() async throws {
        try await TestServer.withAPI(Self.longTimeouts) { api in
            let good = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
            let bad = "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"
            let later = try api.connection()
            later.send(good)
            #expect(await later.read(timeout: .seconds(15)) { $0.contains("\r\n\r\n") }.text.hasPrefix("HTTP/1.1 200"))
            later.send(bad)
            expectRefused(await later.readUntilClosed(timeout: .seconds(15)), status: "400", code: "400111", "after a request")

            let pipelined = try await answer(to: Array((good + bad).utf8), api)
            #expect(pipelined.text.hasPrefix("HTTP/1.1 200"), "\(pipelined.text)")
            let second = pipelined.text.components(separatedBy: "HTTP/1.1 ").dropFirst(2).first ?? ""
            expectRefused(("HTTP/1.1 " + second, pipelined.closed), status: "400", code: "400111", "pipelined")
        }
    }
}
