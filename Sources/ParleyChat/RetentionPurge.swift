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
        for message in expired { fileIDs += try MessageRemoval.removeQuietly(target(message), now: now, repositories).fileIDs }
        return (expired.count, fileIDs)
    }

    /// One batch of the channels' own retention (API.md §14.3): messages past a channel's
    /// `message_retention_hours` go quietly, as the application's retention removes them;
    /// disappearing messages go with `message_deleted`, as a deletion (their members watch them go).
    public static func purgeChannelsBatch(limit: Int, now: Int64, _ repositories: Repositories) throws -> (removed: Int, fileIDs: [String])
    {
        var fileIDs: [String] = []
        let expired = try repositories.retention.expiredInChannels(now: now, limit: limit)
        for message in expired { fileIDs += try MessageRemoval.removeQuietly(target(message), now: now, repositories).fileIDs }
        let disappeared = try repositories.retention.disappeared(now: now, limit: limit)
        for message in disappeared { fileIDs += try MessageRemoval.remove(target(message), hiddenFrom: nil, now: now, repositories) }
        return (expired.count + disappeared.count, fileIDs)
    }

    private static func target(_ message: RetentionRepository.Expired) -> MessageRemoval.Target {
        MessageRemoval.Target(
            messageID: message.messageID, channelURL: message.channelURL, kind: message.kind, parentMessageID: message.parentMessageID,
            senderID: message.senderID)
    }
}
