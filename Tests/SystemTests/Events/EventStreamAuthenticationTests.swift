import Foundation
import Testing

/// Who may hold an event stream (API.md §6.1): a token in the first frame, and 4001 once the token or the user goes.
@Suite struct EventStreamAuthenticationTests {
    @Test func aBrowserAuthenticatesInItsFirstFrameOrIsClosedWith4001() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evb", 1)
            let port = try #require(api.client.port)
            let browser = EventSocket(port: port, token: nil)
            try browser.send(["type": "auth", "token": cast.tokens[cast[0]]!])
            _ = try await browser.hello()
            browser.close()
            let wrong = EventSocket(port: port, token: nil)
            try wrong.send(["type": "auth", "token": "nope"])
            #expect(try await wrong.closed() == 4001)
            let badHeader = EventSocket(port: port, token: "x")
            #expect(try await badHeader.closed() == 4001)
        }
    }

    @Test func revokingTheTokensClosesAnOpenSocketWith4001() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evr", 1)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            #expect(try await api.delete("/v3/users/\(cast[0])/token").status == 200)
            #expect(try await socket.closed() == 4001)
        }
    }

    @Test func aSocketClosesWith4001WhenItsSessionTokenExpires() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("eve", 1)
            // Long enough for the socket to open first, also under load.
            let expiresAt = Int(Date().timeIntervalSince1970 * 1000) + 5000
            let issued = try await api.post("/v3/users/\(cast[0])/token", ["expires_at": expiresAt])
            let socket = try await api.events(try issued.decode(SessionTokenBody.self).token)
            #expect(try await socket.closed() == 4001)
            // Not before the expiry (the wall clock, as the token's).
            #expect(Int(Date().timeIntervalSince1970 * 1000) >= expiresAt - 50)
        }
    }

    @Test func deactivationClosesTheSocket() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evd", 1)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            #expect(try await api.put("/v3/users/\(cast[0])", ["is_active": false]).status == 200)
            #expect(try await socket.closed() == 4001)
        }
    }
}
