import ParleyCore
import ParleyStore

/// Removing a message, as every deletion does it (its sender's, a moderator's, a GDPR erasure's,
/// retention's): soft (the content goes, the row stays as a tombstone), the unread counts and the
/// thread kept right, unpinned (API.md §13.2), and for all but retention `message_deleted` to the
/// channel.
enum MessageRemoval {
    /// What a removal needs to know of the message.
    struct Target {
        let messageID: Int64
        let channelURL: String
        let kind: ChannelKind
        let parentMessageID: Int64?
        let senderID: String?
    }

    /// Removes and announces; returns the ids of the message's stored files, to remove once the
    /// transaction committed.
    static func remove(_ message: Message, now: Int64, _ repositories: Repositories) throws -> [String] {
        let target = Target(
            messageID: message.messageID, channelURL: message.channelURL, kind: message.channelKind,
            parentMessageID: message.parentMessageID, senderID: message.sender?.userID)
        return try remove(target, hiddenFrom: message.hiddenFrom, now: now, repositories)
    }

    /// The same for a message known by its row's keys (a disappearing message); `hiddenFrom`
    /// does not hear of it.
    static func remove(_ target: Target, hiddenFrom: String?, now: Int64, _ repositories: Repositories) throws -> [String] {
        let (fileIDs, unpinned) = try removeQuietly(target, now: now, announcingThread: true, repositories)
        let (channelURL, messageID, kind) = (target.channelURL, target.messageID, target.kind)
        if unpinned { ChannelEvents.channel(.messageUnpinned, channelURL, kind: kind, payload: .messageID(messageID), repositories) }
        ChannelEvents.channel(.messageDeleted, channelURL, kind: kind, payload: .messageID(messageID), except: hiddenFrom, repositories)
        return fileIDs
    }

    /// Removes without events (retention: clients learn it from the changelogs, where the
    /// message shows as deleted); the stored files to remove, and whether it was pinned.
    static func removeQuietly(_ target: Target, now: Int64, announcingThread: Bool = false, _ repositories: Repositories) throws
        -> (fileIDs: [String], unpinned: Bool)
    {
        let fileIDs = try repositories.files.removeForMessage(target.messageID)
        if let removed = try repositories.messages.markRemoved(target.messageID, now: now) {
            try repositories.receipts.recordRemoval(removed)
            if let parentID = target.parentMessageID {
                try repositories.threads.recordRemoval(parentID: parentID, userID: target.senderID, now: now)
                if announcingThread { try MessageService.announceThreadChange(of: parentID, target.channelURL, repositories) }
            }
        }
        return (fileIDs, try repositories.pins.unpin(target.channelURL, target.messageID))
    }
}
