import Foundation
import ParleyKit
import Testing

/// API.md §13 through ParleyKit: threads, pins, scheduled messages, polls, search, metacounters.
@Suite struct ConversationTests {
    @Test func threadsPinsPollsSearchAndCounters() async throws {
        let server = try await ParleyServer()
        let (alice, _, bob, _, url) = try await server.aliceAndBob()
        let word = "zebra\(Int.random(in: 100_000...999_999))"

        // A thread.
        let parent = try await alice.messages.sendUserMessage(url, .init(message: "parent \(word)"))
        var reply = UserMessageParams(message: "a reply")
        reply.parentMessageId = parent.messageId
        _ = try await bob.messages.sendUserMessage(url, reply)
        var window = MessageListParams(point: .timestamp(0), nextLimit: 10)
        window.includeParentMessageInfo = true
        let thread = try await alice.conversations.thread(url, parentMessageId: parent.messageId, window)
        #expect(thread.replies.map(\.message) == ["a reply"] && thread.parentMessage?.messageId == parent.messageId)
        #expect(thread.replies.first?.parentMessageInfo?.message == parent.message)
        #expect(try await alice.messages.get(url, messageId: parent.messageId).threadInfo?.replyCount == 1)

        // Pins.
        try await alice.conversations.pin(url, messageId: parent.messageId)
        #expect(try await bob.conversations.pinnedMessages(url).items.map(\.messageId) == [parent.messageId])
        #expect(try await bob.groupChannels.get(url).pinnedMessageIds == [parent.messageId])
        try await alice.conversations.unpin(url, messageId: parent.messageId)
        #expect(try await bob.conversations.pinnedMessages(url).items.isEmpty)

        // A poll carried into the channel, voted on.
        let poll = try await alice.conversations.createPoll(.init(title: "Lunch?", options: ["pizza", "sushi"]))
        var carrier = UserMessageParams(message: "vote!")
        carrier.pollId = poll.id
        _ = try await alice.messages.sendUserMessage(url, carrier)
        let voted = try await bob.conversations.vote(poll: poll.id, optionIds: [poll.options[1].id])
        #expect(voted.options.map(\.voteCount) == [0, 1])
        #expect(try await bob.conversations.poll(poll.id).votedOptionIds == [poll.options[1].id])
        #expect(try await alice.conversations.closePoll(poll.id).status == "closed")

        // Search, and counters.
        #expect(try await bob.conversations.searchMessages(word).items.map(\.messageId) == [parent.messageId])
        #expect(try await alice.conversations.increase(url, key: "likes", by: 3) == 3)
        #expect(try await alice.conversations.increase(url, key: "likes", by: -1) == 2)
        // Only operators write counters; members read them.
        await #expect(throws: ParleyKitError.self) { try await bob.conversations.increase(url, key: "likes", by: 1) }
        #expect(try await bob.conversations.metacounters(url) == ["likes": 2])
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }

    @Test func scheduledMessages() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId])).channelURL
        let inAnHour = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
        let later = try await alice.conversations.schedule(url, .init(message: "later"), at: inAnHour)
        #expect(later.status == "pending" && later.scheduledAt == inAnHour)
        let other = try await alice.conversations.schedule(url, .init(message: "never"), at: inAnHour)
        #expect(try await alice.conversations.cancelScheduled(url, id: other.id).status == "canceled")
        #expect(Set(try await alice.conversations.scheduledMessages(channelURL: url).items.map(\.id)) == [later.id, other.id])
        let sent = try await alice.conversations.sendScheduledNow(url, id: later.id)
        #expect(sent.status == "sent" && sent.messageId > 0)
        #expect(try await alice.messages.list(url, .init(point: .timestamp(.max), previousLimit: 5)).map(\.message) == ["later"])
        await alice.disconnect()
        server.stop()
    }
}
