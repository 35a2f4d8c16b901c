import Foundation
import Testing

/// Requests to the event stream that are not a well-formed WebSocket upgrade, answered as plain HTTP.
@Suite struct EventStreamUpgradeTests {
    @Test func aPlainGETIsToldToUpgrade() async throws {
        try await TestServer.withAPI { api in
            let response = try await api.get("/v3/events")
            #expect(response.status == 426)
        }
    }

    /// Every upgrade that is not a well-formed WebSocket upgrade of the stream is answered as plain
    /// HTTP and the connection closes after it: missing or wrong WebSocket headers and another
    /// protocol on `/v3/events` get the documented 426 body, another path its usual answer. An
    /// upgrade sent after another request on the same connection (NIO upgrades a connection's
    /// first request only) gets the 426 too.
    @Test func incompleteForeignAndLateUpgradesAreAnswered() async throws {
        try await TestServer.withAPI { api in
            let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            let handshake = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            let firstRequests = [
                ("GET /v3/events", upgrade, "426", "400111"),
                ("GET /v3/events", "Upgrade: h2c\r\nConnection: Upgrade\r\n", "426", "400111"),
                (
                    "GET /v3/events", upgrade + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n", "426",
                    "400111"
                ),
                ("GET /v3/users", upgrade + handshake, "401", "400401")
            ]
            for (line, headers, status, code) in firstRequests {
                let connection = try api.connection()
                connection.send("\(line) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
                let answer = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(answer.closed, "\(line) \(headers)")
                #expect(answer.text.hasPrefix("HTTP/1.1 \(status)"), "\(answer.text)")
                #expect(answer.text.contains("\"code\":\(code)"), "\(answer.text)")
            }
            let late = try api.connection()
            late.send("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = await late.read(timeout: .seconds(10)) { $0.contains("ready") }
            late.send("GET /v3/events HTTP/1.1\r\nHost: x\r\n\(upgrade)\(handshake)\r\n")
            let second = await late.read(timeout: .seconds(10)) { $0.contains("400111") }
            #expect(second.text.contains("HTTP/1.1 426"), "\(second.text)")
        }
    }
}
