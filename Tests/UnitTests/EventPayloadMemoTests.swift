import ParleyCore
import Testing

@testable import ParleyStore

/// The memo of written event payloads (issue 32) must give exactly what decoding the stored text
/// gives, or an event would reach a socket differently from this instance than from another.
@Suite struct EventPayloadMemoTests {
    /// A message with every stored field set, and the two fields that are never stored set away
    /// from their defaults.
    static func fullMessage() -> Message {
        var message = Message(
            messageID: 42, type: .file, channelURL: "c/ü",
            sender: BasicUser(
                userID: "u\"1", nickname: "Ä \\ n", profileURL: "https://x/p",
                isActive: false),
            message: "안녕 \u{1F600} \n</script>", customType: "t", data: "{\"a\":1}", mentionType: .channel, mentionedUserIDs: ["u2", "u3"],
            sortedMetaarray: [MetaArray(key: "k", value: ["a", "b"])], isOpMsg: true, silent: true, createdAt: 1_700_000_000_123,
            updatedAt: 1_700_000_000_999, isRemoved: false, dedupID: "d-1",
            file: FileAttachment(
                fileID: "f1", name: "a.png", type: "image/png", size: 1234, requireAuth: true,
                thumbnails: [ThumbnailInfo(width: 100, height: 100, realWidth: 100, realHeight: 50, type: "image/jpeg", size: 99)]),
            hiddenFrom: "u9", channelKind: .open)
        message.mentionedUsers = [BasicUser(userID: "u2", nickname: "Two", profileURL: "", isActive: true)]
        message.reactions = [Reaction(key: "👍", userIDs: ["u2"], updatedAt: 5)]
        message.isSenderBlockedByViewer = true
        message.translations = ["ko": "안녕", "ja": "こんにちは"]
        message.ogTag = OGTag(url: "https://e/x", title: "T", description: nil, image: OGTag.Image(url: "https://e/i", width: 1, height: 2))
        (message.parentMessageID, message.isReplyToChannel) = (41, true)
        var parent = message
        (parent.messageID, parent.message, parent.customType) = (41, "the parent", "q")
        message.parentMessageInfo = ParentMessageInfo(of: parent)
        let replier = BasicUser(userID: "u3", nickname: "Three", profileURL: "", isActive: false)
        message.threadInfo = ThreadInfo(replyCount: 7, lastRepliedAt: 99, updatedAt: 100, mostReplies: [replier])
        return message
    }

    @Test func aRememberedPayloadIsWhatDecodingItsTextGives() throws {
        let memo = EventPayloadMemo(capacity: 8)
        for payload in [EventPayload.message(Self.fullMessage()), .message(EventFixtures.message(from: nil))] {
            let text = try StoredMessagePayload.text(of: payload)
            memo.remember(payload, storedAs: text)
            let remembered = try #require(memo.take(text))
            #expect(remembered == (try JSONColumn.value(text, as: EventPayload.self)))
        }
    }

    /// The message payload written without `JSONEncoder` reads back as the message, also with
    /// every optional absent, quotes, backslashes, control characters and non-ASCII text.
    @Test func theWrittenTextOfAMessageDecodesToTheMessage() throws {
        var bare = EventFixtures.message(from: nil)
        bare.translations = [:]
        for message in [Self.fullMessage(), EventFixtures.message(from: "u1"), bare] {
            var stored = message
            stored.isSenderBlockedByViewer = false
            stored.channelKind = .group
            let text = StoredMessagePayload.text(message)
            #expect(try JSONColumn.value(text, as: EventPayload.self) == .message(stored), "\(text)")
        }
        let receipt = EventPayload.receipt(userID: "u1", ts: 1)
        // Not a message: the encoder's text (whose key order is its own), read back as the value.
        #expect(try JSONColumn.value(try StoredMessagePayload.text(of: receipt), as: EventPayload.self) == receipt)
    }

    @Test func aPayloadIsTakenOnceAndOnlyMessagesAreKept() throws {
        let memo = EventPayloadMemo(capacity: 8)
        let text = try JSONColumn.text(EventPayload.message(Self.fullMessage()))
        memo.remember(.message(Self.fullMessage()), storedAs: text)
        #expect(memo.take(text) != nil)
        #expect(memo.take(text) == nil)
        #expect(try memo.payload(storedAs: text) == (try JSONColumn.value(text, as: EventPayload.self)))
        let receipt = EventPayload.receipt(userID: "u1", ts: 1)
        let receiptText = try JSONColumn.text(receipt)
        memo.remember(receipt, storedAs: receiptText)
        #expect(memo.take(receiptText) == nil)
    }

    @Test func theOldestAreForgottenPastTheCapacity() throws {
        let memo = EventPayloadMemo(capacity: 3)
        var texts: [String] = []
        for id in 1...5 {
            var message = EventFixtures.message(from: "u1")
            message.messageID = Int64(id)
            let text = try JSONColumn.text(EventPayload.message(message))
            memo.remember(.message(message), storedAs: text)
            texts.append(text)
        }
        #expect(texts.map { memo.take($0) != nil } == [false, false, true, true, true])
    }
}
