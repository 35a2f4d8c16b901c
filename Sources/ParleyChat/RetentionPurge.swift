import ParleyCore
import ParleyStore

/// Message retention (API.md §14.3, `PARLEY_MESSAGE_RETENTION_DAYS`): messages older than the
/// cutoff are removed as deletions remove them (`MessageRemoval`, content and files gone, unread
/// counts and threads right), without an event each: a purge of a million would otherwise flood
/// every socket and webhook; clients see them deleted in the changelogs.
public enum RetentionPurge {
    /// One batch, oldest first: how many it removed, and the stored files to remove once it committed.
    public static func purgeBatch(before cutoff: Int64, limit: Int, now: Int64, _ repositories: Repositories) throws
        -> (removed: Int, fileIDs: [String])
    {
        var fileIDs: [String] = []
        let expired = try repositories.retention.expired(before: cutoff, limit: limit)
        for message in expired {
            let target = MessageRemoval.Target(
                messageID: message.messageID, channelURL: message.channelURL, kind: message.kind, parentMessageID: message.parentMessageID,
                senderID: message.senderID)
            fileIDs += try MessageRemoval.removeQuietly(target, now: now, repositories).fileIDs
        }
        return (expired.count, fileIDs)
    }
}
