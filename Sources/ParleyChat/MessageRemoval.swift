import ParleyCore
import ParleyStore

/// Removing a message, as every deletion does it (its sender's, a moderator's, a GDPR erasure's):
/// soft (the content goes, the row stays as a tombstone), the unread counts and the thread kept
/// right, unpinned (API.md §13.2), `message_deleted` to the channel.
enum MessageRemoval {
    /// Returns the ids of the message's stored files, to remove once the transaction committed.
    static func remove(_ message: Message, now: Int64, _ repositories: Repositories) throws -> [String] {
        let (channelURL, messageID, kind) = (message.channelURL, message.messageID, message.channelKind)
        let fileIDs = try repositories.files.removeForMessage(messageID)
        if let removed = try repositories.messages.markRemoved(messageID, now: now) {
            try repositories.receipts.recordRemoval(removed)
            try MessageService.recordReplyRemoval(message, now: now, repositories)
        }
        if try repositories.pins.unpin(channelURL, messageID) {
            ChannelEvents.channel(.messageUnpinned, channelURL, kind: kind, payload: .messageID(messageID), repositories)
        }
        ChannelEvents.channel(
            .messageDeleted, channelURL, kind: kind, payload: .messageID(messageID), except: message.hiddenFrom, repositories)
        return fileIDs
    }
}
