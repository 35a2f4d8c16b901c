import Foundation
import ParleyKit
import Testing

/// The event stream across drops: what was missed arrives after a reconnection, each event once,
/// in order; a refused token is renewed through the app's provider.
@Suite struct ReconnectionTests {
    /// Reconnections within 2 s, so the tests do not wait for the protocol's 30 s backoff.
    static var quick: ConnectionSettings {
        var settings = ConnectionSettings()
        settings.maximumBackoff = 2
        return settings
    }

    /// Bob's server dies; 500 messages are sent through another instance on the same database;
    /// his server comes back on the same address: he receives all 500, once each, in order.
    @Test func aServerRestartMissing500MessagesDeliversEachOnceInOrder() async throws {
        let first = try await ParleyServer()
        let second = try await ParleyServer()
        let (aliceId, _) = try await first.user("alice")
        let (bobId, bobToken) = try await first.user("bob")
        let channel = try await first.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])
        let url = try #require(channel["channel_url"] as? String)
        let bob = ParleyClient(baseURL: first.baseURL, settings: Self.quick)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")
        bob.addConnectionDelegate(heard, identifier: "test")
        let before = try await first.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "before"])
        #expect(await eventually { heard.received.count == 1 })

        first.kill()
        #expect(await eventually { bob.connectionState != .open })
        var sent: [Int64] = []
        for index in 0..<500 {
            let message = try await second.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "m\(index)"])
            sent.append((message["message_id"] as? NSNumber)?.int64Value ?? -1)
        }
        try await first.start()
        #expect(await eventually(within: 30) { heard.received.count == 501 })
        let ids = heard.received.map(\.messageId)
        #expect(ids == [(before["message_id"] as? NSNumber)?.int64Value ?? 0] + sent)
        #expect(Set(ids).count == ids.count)
        #expect(heard.reconnections >= 1)
        // Live again after the replay.
        _ = try await first.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "after"])
        #expect(await eventually { heard.received.last?.message == "after" })
        #expect(heard.received.count == 502)
        await bob.disconnect()
        first.stop()
        second.stop()
    }

    /// An app that disconnects (goes to the background) and connects again resumes where it was.
    @Test func connectingAgainResumesAfterTheLastEventHandled() async throws {
        let server = try await ParleyServer()
        let (aliceId, _) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let channel = try await server.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])
        let url = try #require(channel["channel_url"] as? String)
        let bob = ParleyClient(baseURL: server.baseURL)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        _ = try await server.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "one"])
        #expect(await eventually { heard.received.count == 1 })
        await bob.disconnect()
        for text in ["two", "three"] {
            _ = try await server.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": text])
        }
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        #expect(await eventually { heard.received.count == 3 })
        #expect(heard.received.map(\.message) == ["one", "two", "three"])
        await bob.disconnect()
        server.stop()
    }

    /// Bob's token runs out while he is connected (the server closes his socket with 4001 within
    /// a second): the provider gives a new one, and the stream and REST go on with it.
    @Test func anExpiredTokenIsRenewedThroughTheProvider() async throws {
        let server = try await ParleyServer()
        let (aliceId, _) = try await server.user("alice")
        let (bobId, _) = try await server.user("bob")
        let url = try #require(
            try await server.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])["channel_url"] as? String)
        let shortLived = try await server.token(for: bobId, expiresAt: Int64(Date().timeIntervalSince1970 * 1000) + 2_000)
        let asked = Counter()
        let bob = ParleyClient(baseURL: server.baseURL, settings: Self.quick)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")
        try await bob.connect(userId: bobId, sessionToken: shortLived) { userId in
            asked.increment()
            return try await server.token(for: userId)
        }
        #expect(await eventually(within: 10) { asked.value == 1 })
        #expect(await eventually { bob.connectionState == .open })
        _ = try await server.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "after expiry"])
        #expect(await eventually { heard.received.map(\.message) == ["after expiry"] })
        #expect(try await bob.groupChannels.myChannels().items.map(\.channelURL) == [url])
        #expect(asked.value == 1)
        await bob.disconnect()
        server.stop()
    }

    /// The server revokes Bob's tokens (closing his socket with 4001): ParleyKit asks the app's
    /// provider for a new one, reconnects with it, and REST calls use it too.
    @Test func aRevokedTokenIsRenewedThroughTheProvider() async throws {
        let server = try await ParleyServer()
        let (aliceId, _) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let channel = try await server.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])
        let url = try #require(channel["channel_url"] as? String)
        let asked = Counter()
        let bob = ParleyClient(baseURL: server.baseURL, settings: Self.quick)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")
        try await bob.connect(userId: bobId, sessionToken: bobToken) { userId in
            asked.increment()
            return try await server.token(for: userId)
        }
        try await server.admin("DELETE", "/v3/users/\(bobId)/token")
        #expect(await eventually { asked.value == 1 })
        #expect(await eventually { bob.connectionState == .open })
        _ = try await server.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": aliceId, "message": "still here"])
        #expect(await eventually { heard.received.map(\.message) == ["still here"] })
        let mine = try await bob.groupChannels.myChannels()
        #expect(mine.items.map(\.channelURL) == [url])
        #expect(asked.value == 1)

        // A provider whose tokens are refused too is asked three times in a row, then the session ends.
        let stale = Counter()
        await bob.setTokenProvider { _ in
            stale.increment()
            return "not-a-token"
        }
        let refusedStates = bob.connectionStates()
        try await server.admin("DELETE", "/v3/users/\(bobId)/token")
        for await state in refusedStates {
            if case .closed(let reason) = state {
                #expect(reason == .unauthorized)
                break
            }
        }
        #expect(stale.value == 3)
        try await bob.connect(userId: bobId, sessionToken: try await server.token(for: bobId))

        // Without a provider, a refused token ends the session.
        await bob.setTokenProvider(nil)
        let states = bob.connectionStates()
        try await server.admin("DELETE", "/v3/users/\(bobId)/token")
        var last: ConnectionState?
        for await state in states {
            last = state
            if case .closed = state { break }
        }
        #expect(last == .closed(.unauthorized))
        server.stop()
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
