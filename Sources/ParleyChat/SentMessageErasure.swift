import ParleyCore
import ParleyStore

/// A GDPR erasure's work on the messages a user sent (API.md §14.1): each is removed as any
/// deletion removes it (`MessageRemoval`: members see `message_deleted`, unread counts and
/// threads stay right), its cached link previews are forgotten, and the tombstone keeps no trace
/// of the sender.
public enum SentMessageErasure {
    /// One batch, after the message `afterID`: the last message id it handled (nil when none was
    /// left), how many it removed, and the stored files to remove once the batch committed.
    public static func eraseBatch(sentBy userID: String, after afterID: Int64, limit: Int, now: Int64, _ repositories: Repositories)
        throws -> (lastID: Int64?, removed: Int, fileIDs: [String])
    {
        let batch = try repositories.erasure.sentMessages(by: userID, after: afterID, limit: limit)
        guard let last = batch.last else { return (nil, 0, []) }
        let ids = batch.map(\.messageID)
        try repositories.erasure.forgetPreviews(of: ids)
        var (removed, fileIDs) = (0, [String]())
        for (channelURL, messageID) in batch {
            guard let message = try repositories.messages.find(channelURL, messageID, viewerID: nil), !message.isRemoved else { continue }
            fileIDs += try MessageRemoval.remove(message, now: now, repositories)
            removed += 1
        }
        try repositories.erasure.anonymiseSender(of: ids)
        return (last.messageID, removed, fileIDs)
    }
}
