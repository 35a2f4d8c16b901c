import ParleyCore
import ParleyStore

/// Threads (API.md §13.1): a reply names its parent, and the parent's `thread_info` changes in
/// the transaction of each reply and each reply's deletion (`ThreadRepository`), told to the
/// channel as the parent's `message_updated`.
extension MessageService {
    /// The parent a reply names, as its sender reads it: a message of this channel, not removed,
    /// not itself a reply and not hidden from them (400111 otherwise).
    static func replyParent(_ parentID: Int64, _ channelURL: String, senderID: String?, _ repositories: Repositories) throws -> Message {
        guard let parent = try repositories.messages.find(channelURL, parentID, viewerID: senderID), !parent.isRemoved else {
            throw ParleyError.invalidValue("parent_message_id", "there is no message \(parentID) to reply to in \"\(channelURL)\"")
        }
        guard parent.parentMessageID == nil else {
            throw ParleyError.invalidValue("parent_message_id", "message \(parentID) is a reply; replies have no replies")
        }
        return parent
    }

    /// Counts a stored reply into its parent's thread.
    static func recordReply(_ reply: Message, to parentID: Int64, _ repositories: Repositories) throws {
        try repositories.threads.recordReply(parentID: parentID, userID: reply.sender?.userID, at: reply.createdAt)
        try announceThreadChange(of: parentID, reply.channelURL, repositories)
    }

    /// A thread's replies as the caller reads them (a window like history's) and its parent,
    /// also when the parent was deleted (its replies stay): 404 for a message they cannot see,
    /// 400111 for a reply (replies have no thread).
    public func thread(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ parentID: Int64, _ query: HistoryQuery, viewerID: String?
    ) async throws -> (parent: Message, replies: MessageWindow) {
        let (limited, named) = try bounded(query, caller, viewerID: viewerID)
        var query = limited
        query.replies = .thread(parentID: parentID)
        let now = clock.nowMillis
        return try await store.replicaRead { [query] repositories in
            let viewer = try Self.viewer(kind, channelURL, caller, named, now: now, repositories)
            guard let parent = try repositories.messages.find(channelURL, parentID, viewerID: viewer.userID) else {
                throw Self.notFound(parentID)
            }
            guard parent.parentMessageID == nil else {
                throw ParleyError.invalidValue("message_id", "message \(parentID) is a reply; replies have no thread")
            }
            var replies = try Self.window(channelURL, query, viewer, repositories)
            if query.includeParentMessageInfo {
                for index in replies.messages.indices { replies.messages[index].parentMessageInfo = ParentMessageInfo(of: parent) }
            }
            return (try MessageDetails.attach(parent, repositories), replies)
        }
    }

    /// The messages with their parents' `parent_message_info`, as `viewer` reads the parents.
    static func withParentInfo(_ messages: [Message], _ channelURL: String, _ viewer: MessageViewer, _ repositories: Repositories) throws
        -> [Message]
    {
        let parentIDs = Array(Set(messages.compactMap(\.parentMessageID)))
        let parents = try repositories.threads.parents(channelURL, parentIDs, viewerID: viewer.userID)
        return messages.map { message in
            var message = message
            message.parentMessageInfo = message.parentMessageID.flatMap { parents[$0] }.map(ParentMessageInfo.init(of:))
            return message
        }
    }

    /// The parent's new `thread_info`, to the channel (a removed parent keeps counting quietly).
    static func announceThreadChange(of parentID: Int64, _ channelURL: String, _ repositories: Repositories) throws {
        guard let parent = try repositories.messages.find(channelURL, parentID, viewerID: nil), !parent.isRemoved else { return }
        ChannelEvents.message(.messageUpdated, try MessageDetails.attach(parent, repositories), repositories)
    }
}
