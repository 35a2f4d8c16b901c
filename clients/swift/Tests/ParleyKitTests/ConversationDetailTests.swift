import Foundation
import ParleyKit
import Testing

/// The rest of API.md §13 through ParleyKit: polls edited and listed, voters, scheduled edits,
/// counts and uploads, search filters, counters removed.
@Suite struct ConversationDetailTests {
    @Test func pollsEditedListedAndVotersNamed() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let (bob, bobId) = try await server.connected("bob")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId])).channelURL
        var params = PollParams(title: "Lunch?", options: ["pizza", "sushi", "soup"])
        params.allowUserSuggestion = true
        let poll = try await alice.conversations.createPoll(params)
        var carrier = UserMessageParams(message: "vote!")
        carrier.pollId = poll.id
        _ = try await alice.messages.sendUserMessage(url, carrier)
        #expect(try await bob.conversations.polls(in: url).items.map(\.id) == [poll.id])

        let renamed = try await alice.conversations.updatePoll(poll.id, PollUpdate(title: "Lunch today?"))
        #expect(renamed.title == "Lunch today?")
        // Only the creator (or an operator) changes a poll.
        await #expect(throws: ParleyKitError.self) { try await bob.conversations.updatePoll(poll.id, PollUpdate(title: "mine")) }
        let suggested = try await bob.conversations.addPollOption(poll: poll.id, text: "salad")
        let salad = try #require(suggested.options.first { $0.text == "salad" })
        // Suggesting is open to members; rewording is the creator's.
        await #expect(throws: ParleyKitError.self) {
            try await bob.conversations.updatePollOption(poll: poll.id, option: salad.id, text: "mine")
        }
        #expect(try await alice.conversations.updatePollOption(poll: poll.id, option: salad.id, text: "green salad").options.count == 4)
        #expect(try await alice.conversations.pollOption(poll: poll.id, option: salad.id).text == "green salad")
        let sushi = poll.options[1].id
        _ = try await bob.conversations.vote(poll: poll.id, optionIds: [sushi])
        #expect(try await alice.conversations.voters(poll: poll.id, option: sushi).items.map(\.userId) == [bobId])
        let fewer = try await alice.conversations.deletePollOption(poll: poll.id, option: poll.options[2].id)
        #expect(fewer.options.map(\.text) == ["pizza", "sushi", "green salad"])
        try await alice.conversations.deletePoll(poll.id)
        await #expect(throws: ParleyKitError.self) { try await alice.conversations.poll(poll.id) }
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }

    @Test func scheduledMessagesEditedCountedAndUploaded() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId])).channelURL
        let inAnHour = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
        let note = try await alice.conversations.schedule(url, .init(message: "draft"), at: inAnHour)
        let edited = try await alice.conversations.updateScheduled(
            url, id: note.id, .init(message: "final", scheduledAt: inAnHour + 60_000))
        #expect(edited.message == "final" && edited.scheduledAt == inAnHour + 60_000)
        #expect(try await alice.conversations.scheduledMessage(url, id: note.id).message == "final")

        let reports = ProgressLog()
        var file = FileMessageParams(file: Data(repeating: 7, count: 200_000), fileName: "later.bin")
        file.customType = "report"
        let upload = try await alice.conversations.scheduleFile(url, file, at: inAnHour) { sent, total in reports.add(sent, total) }
        #expect(upload.type == "FILE" && upload.status == "pending" && upload.customType == "report")
        #expect(reports.all.last.map { $0.sent == $0.total && $0.total > 200_000 } == true)
        #expect(try await alice.conversations.scheduledMessageCount() == 2)
        _ = try await alice.conversations.cancelScheduled(url, id: note.id)
        #expect(try await alice.conversations.scheduledMessageCount(.init(statuses: ["pending"])) == 1)
        #expect(try await alice.conversations.scheduledMessages(.init(statuses: ["canceled"])).items.map(\.id) == [note.id])
        let sent = try await alice.conversations.sendScheduledNow(url, id: upload.id)
        let message = try await alice.messages.get(url, messageId: sent.messageId)
        #expect(message.file?.name == "later.bin" && message.file?.size == 200_000)
        await alice.disconnect()
        server.stop()
    }

    @Test func searchFiltersAndCountersRemoved() async throws {
        let server = try await ParleyServer()
        let (alice, _, bob, bobId, url) = try await server.aliceAndBob()
        let word = "quokka\(Int.random(in: 100_000...999_999))"
        let first = try await alice.messages.sendUserMessage(url, .init(message: "\(word) one", customType: "note"))
        let second = try await bob.messages.sendUserMessage(url, .init(message: "one \(word) two"))
        #expect(try await alice.conversations.searchMessages(word).items.map(\.messageId) == [second.messageId, first.messageId])
        var bySender = MessageSearchQuery(word)
        bySender.senderId = bobId
        #expect(try await alice.conversations.searchMessages(bySender).items.map(\.messageId) == [second.messageId])
        var byType = MessageSearchQuery(word, channelURL: url)
        byType.customType = "note"
        #expect(try await alice.conversations.searchMessages(byType).items.map(\.messageId) == [first.messageId])
        var exact = MessageSearchQuery("\(word) two")
        exact.exactMatch = true
        #expect(try await alice.conversations.searchMessages(exact).items.map(\.messageId) == [second.messageId])
        var before = MessageSearchQuery(word)
        before.to = first.createdAt
        #expect(try await alice.conversations.searchMessages(before).items.map(\.messageId) == [first.messageId])

        _ = try await alice.conversations.increase(url, key: "likes", by: 2)
        try await alice.conversations.deleteCounter(url, key: "likes")
        #expect(try await bob.conversations.metacounters(url).isEmpty)
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }
}
