import Foundation
import ParleyKit
import Testing

/// Two users chatting through ParleyKit against a real server: the seeds' first steps.
@Suite struct ChatTests {
    @Test func twoUsersChat() async throws {
        let server = try await ParleyServer()
        let (aliceId, aliceToken) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let alice = ParleyClient(baseURL: server.baseURL)
        let bob = ParleyClient(baseURL: server.baseURL)
        let me = try await alice.connect(userId: aliceId, sessionToken: aliceToken)
        #expect(me.userId == aliceId)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        #expect(bob.connectionState == .open)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "chat")
        let seen = Recorder()
        alice.addChannelDelegate(seen, identifier: "chat")

        // A distinct 1-to-1 channel: creating it again gives the same one.
        let channel = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId], isDistinct: true))
        let again = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId], isDistinct: true))
        #expect(again.channelURL == channel.channelURL)
        let url = channel.channelURL

        let sent = try await alice.messages.sendUserMessage(url, .init(message: "Hello Bob", mentionedUserIds: [bobId]))
        #expect(sent.message == "Hello Bob" && sent.user?.userId == aliceId)
        #expect(await eventually { heard.received.map(\.messageId) == [sent.messageId] })
        #expect(heard.received.first?.mentionedUsers?.map(\.userId) == [bobId])
        #expect(try await bob.receipts.totalUnreadMessageCount() == 1)

        // Typing, read receipts, reactions, edits and deletes reach the other side.
        try await bob.receipts.startTyping(url)
        #expect(await eventually { seen.typing(in: url) == [bobId] })
        try await bob.receipts.endTyping(url)
        #expect(await eventually { seen.typing(in: url).isEmpty })
        try await bob.receipts.markAsRead(url)
        #expect(await eventually { seen.reads[bobId] != nil })
        #expect(try await bob.receipts.totalUnreadMessageCount() == 0)
        try await bob.messages.addReaction(url, messageId: sent.messageId, key: "thumbs_up")
        #expect(await eventually { seen.reactions.contains { $0.userId == bobId && $0.operation == "add" } })
        let edited = try await alice.messages.update(url, messageId: sent.messageId, .init(message: "Hello, Bob"))
        #expect(edited.message == "Hello, Bob")
        #expect(await eventually { heard.updated.last?.message == "Hello, Bob" })
        let second = try await bob.messages.sendUserMessage(url, .init(message: "Hi Alice"))
        try await bob.messages.delete(url, messageId: second.messageId)
        #expect(await eventually { seen.deleted == [second.messageId] })

        // Sending the same params again (a retry after a failure) makes no second message.
        let retried = UserMessageParams(message: "once only")
        let firstTry = try await alice.messages.sendUserMessage(url, retried)
        let secondTry = try await alice.messages.sendUserMessage(url, retried)
        #expect(secondTry.messageId == firstTry.messageId)
        try await alice.messages.delete(url, messageId: firstTry.messageId)

        // History by timestamp, and by message id.
        for index in 0..<5 { _ = try await alice.messages.sendUserMessage(url, .init(message: "m\(index)")) }
        let latest = try await bob.messages.list(url, .init(point: .timestamp(Int64.max), previousLimit: 3))
        #expect(latest.map(\.message) == ["m2", "m3", "m4"])
        let after = try await bob.messages.list(url, .init(point: .messageId(sent.messageId), previousLimit: 0, nextLimit: 2))
        #expect(after.map(\.message) == ["Hello, Bob", "m0", "m1"])

        // The channel list shows it with its last message and Bob's unread count.
        let mine = try await bob.groupChannels.myChannels()
        let listed = mine.items.first { $0.channelURL == url }
        #expect(listed?.lastMessage?.message == "m4")
        #expect(listed?.unreadMessageCount == 5)

        await alice.disconnect()
        await bob.disconnect()
        #expect(alice.connectionState == .closed(.requested))
        server.stop()
    }
}
