import Foundation
import ParleyKit
import Testing

/// A chat screen's own sends (pending, failed, resent) and an open channel's screen across a
/// reconnection that outlasted the user's participation.
@Suite struct CollectionSendingTests {
    @Test func aFailedSendStaysUntilResentOrRemoved() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let bob = ParleyClient(baseURL: server.baseURL, settings: ReconnectionTests.quick)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        var create = GroupChannelCreateParams(userIds: [aliceId, bobId])
        create.operatorIds = [aliceId]
        let url = try await alice.groupChannels.create(create).channelURL
        let collection = MessageCollection(client: bob, channelURL: url)
        try await collection.start()

        // Refused (the channel is frozen): failed, and not worth resending as it is.
        _ = try await alice.groupChannels.setFrozen(url, true)
        await #expect(throws: ParleyKitError.self) { try await collection.send(.init(message: "while frozen")) }
        var pending = await collection.pendingMessages
        #expect(pending.count == 1 && pending[0].isFailed && !pending[0].isResendable)
        _ = try await alice.groupChannels.setFrozen(url, false)
        let resent = try await collection.resend(pending[0].id)
        #expect(await collection.pendingMessages.isEmpty)
        #expect(await collection.messages.map(\.messageId) == [resent.messageId])

        // No server at all: failed, resendable; resent once it is back, a single message.
        server.kill()
        await #expect(throws: ParleyKitError.self) { try await collection.send(.init(message: "offline")) }
        pending = await collection.pendingMessages
        #expect(pending.count == 1 && pending[0].isResendable && pending[0].failure?.status == 0)
        try await server.start()
        let offline = try await collection.resend(pending[0].id)
        #expect(offline.message == "offline" && offline.dedupId == pending[0].id)
        #expect(await eventually { await collection.messages.map(\.message) == ["while frozen", "offline"] })

        // A failed message given up.
        _ = try await alice.groupChannels.setFrozen(url, true)
        _ = try? await collection.send(.init(message: "never"))
        let never = try #require(await collection.pendingMessages.first)
        await collection.removeFailed(never.id)
        #expect(await collection.pendingMessages.isEmpty)
        await collection.stop()
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }

    /// Bob's server dies and he is taken out of the open channel meanwhile (as a lapsed
    /// participation would be), so the stream has none of the channel's news for him: after the
    /// reconnection ParleyKit enters the channel again and the collection reads what it missed.
    @Test func anOpenChannelScreenCatchesUpAfterAReconnection() async throws {
        let first = try await ParleyServer()
        let second = try await ParleyServer()
        let (aliceId, _) = try await first.user("alice")
        let (bobId, bobToken) = try await first.user("bob")
        let lobby = "lobby-\(UUID().uuidString.prefix(6))"
        try await first.admin("POST", "/v3/open_channels", ["channel_url": lobby])
        try await first.admin("PUT", "/v3/open_channels/\(lobby)/enter", ["user_id": aliceId])
        let path = "/v3/open_channels/\(lobby)/messages"
        var ids: [Int64] = []
        for index in 0..<3 {
            let sent = try await first.admin("POST", path, ["user_id": aliceId, "message": "m\(index)"])
            ids.append((sent["message_id"] as? NSNumber)?.int64Value ?? -1)
        }
        let bob = ParleyClient(baseURL: first.baseURL, settings: ReconnectionTests.quick)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        try await bob.openChannels.enter(lobby)
        let collection = MessageCollection(client: bob, channelURL: lobby, channelType: .open)
        try await collection.start()
        #expect(await collection.messages.map(\.messageId) == ids)

        first.kill()
        #expect(await eventually { bob.connectionState != .open })
        try await second.admin("PUT", "/v3/open_channels/\(lobby)/exit", ["user_id": bobId])
        let missed = try await second.admin("POST", path, ["user_id": aliceId, "message": "missed"])
        try await second.admin("PUT", "\(path)/\(ids[0])", ["message": "m0 edited"])
        try await second.admin("DELETE", "\(path)/\(ids[1])")
        try await first.start()

        let expected = [ids[0], ids[2], (missed["message_id"] as? NSNumber)?.int64Value ?? -1]
        let caughtUp = await eventually(within: 30) {
            let messages = await collection.messages
            return messages.map(\.messageId) == expected && messages.first?.message == "m0 edited"
        }
        #expect(caughtUp)
        #expect(try await eventually { try await bob.openChannels.participants(lobby).items.map(\.userId).contains(bobId) })
        // Entered again: live messages come through the stream.
        _ = try await first.admin("POST", path, ["user_id": aliceId, "message": "live"])
        #expect(await eventually { await collection.messages.last?.message == "live" })
        await collection.stop()
        await bob.disconnect()
        first.stop()
        second.stop()
    }
}
