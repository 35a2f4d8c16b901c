import Foundation
import ParleyKit
import Testing

/// A chat screen's messages: pages both ways, new messages, edits and deletes as they happen, and
/// a catch-up after the server could not replay what was missed.
@Suite struct MessageCollectionTests {
    @Test func theCollectionFollowsTheChannelAndPagesBack() async throws {
        let server = try await ParleyServer()
        let (aliceId, _) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let url = try #require(
            try await server.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])["channel_url"] as? String)
        var ids: [Int64] = []
        for index in 0..<25 { ids.append(try await Self.send(server, url, aliceId, "m\(index)")) }
        let bob = ParleyClient(baseURL: server.baseURL)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        let collection = MessageCollection(client: bob, channelURL: url, pageSize: 10)
        try await collection.start()
        #expect(await collection.messages.map(\.message) == (15..<25).map { "m\($0)" })
        let (hasPrevious, hasNext) = (await collection.hasPrevious, await collection.hasNext)
        #expect(hasPrevious && !hasNext)
        try await collection.loadPrevious()
        try await collection.loadPrevious()
        #expect(await collection.messages.map(\.messageId) == ids)
        let stillPrevious = await collection.hasPrevious
        #expect(!stillPrevious)

        let live = try await Self.send(server, url, aliceId, "live")
        try await server.admin("PUT", "/v3/group_channels/\(url)/messages/\(ids[3])", ["message": "m3 edited"])
        try await server.admin("DELETE", "/v3/group_channels/\(url)/messages/\(ids[4])")
        #expect(await eventually { await collection.messages.last?.messageId == live })
        #expect(await eventually { await collection.messages.first { $0.messageId == ids[3] }?.message == "m3 edited" })
        #expect(await eventually { await !collection.messages.contains { $0.messageId == ids[4] } })
        #expect(await collection.messages.count == 25)
        await collection.stop()
        await bob.disconnect()
        server.stop()
    }

    /// Away while 1,001 messages were sent (more than the server replays): the connection
    /// delegate hears the channel changelog, and the collection catches up over REST.
    @Test func aResyncCatchesTheCollectionUp() async throws {
        let server = try await ParleyServer()
        let (aliceId, _) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let url = try #require(
            try await server.admin("POST", "/v3/group_channels", ["user_ids": [aliceId, bobId]])["channel_url"] as? String)
        let first = try await Self.send(server, url, aliceId, "first")
        let second = try await Self.send(server, url, aliceId, "second")
        let bob = ParleyClient(baseURL: server.baseURL)
        let heard = Recorder()
        bob.addConnectionDelegate(heard, identifier: "test")
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        let collection = MessageCollection(client: bob, channelURL: url)
        try await collection.start()
        #expect(await collection.messages.map(\.messageId) == [first, second])
        await bob.disconnect()

        var sent: [Int64] = []
        for index in 0..<1_001 { sent.append(try await Self.send(server, url, aliceId, "away \(index)")) }
        try await server.admin("PUT", "/v3/group_channels/\(url)/messages/\(first)", ["message": "first, edited"])
        try await server.admin("DELETE", "/v3/group_channels/\(url)/messages/\(second)")
        try await bob.connect(userId: bobId, sessionToken: bobToken)

        #expect(await eventually(within: 30) { heard.resyncs.count == 1 })
        #expect(heard.resyncs.first?.updated.map(\.channelURL) == [url])
        // The new messages first, then the edits and deletes of the changelog.
        let expected = [first] + sent
        let caughtUp = await eventually(within: 30) {
            let messages = await collection.messages
            return messages.map(\.messageId) == expected && messages.first?.message == "first, edited"
        }
        #expect(caughtUp)
        let messages = await collection.messages
        #expect(messages.count == expected.count && messages.first?.message == "first, edited")
        await collection.stop()
        await bob.disconnect()
        server.stop()
    }

    static func send(_ server: ParleyServer, _ url: String, _ sender: String, _ text: String) async throws -> Int64 {
        let sent = try await server.admin("POST", "/v3/group_channels/\(url)/messages", ["user_id": sender, "message": text])
        return (sent["message_id"] as? NSNumber)?.int64Value ?? -1
    }
}
