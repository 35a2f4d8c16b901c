import ParleyCore
import ParleyFiles
import ParleyStore

/// Group channel messages (API.md §4.2–4.4): reading here; sending in `MessageService+send`,
/// file uploads in `MessageService+upload`, edits and deletes in `MessageService+change`.
public struct MessageService: Sendable {
    let store: Store
    let clock: Clock
    let settings: ChatSettings
    let files: FileService

    public init(store: Store, clock: Clock, settings: ChatSettings, files: FileService) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.files = files
    }

    /// A history window as `viewerID` (the session user, or the user the admin names) may see it.
    public func history(_ caller: Caller, _ channelURL: String, _ query: HistoryQuery, viewerID: String?) async throws -> [Message] {
        if query.includeRemoved { try caller.requireAdmin() }
        let viewer = try caller.viewer(named: viewerID)
        return try await store.read { repositories in
            let viewer = try Self.viewer(channelURL, caller, viewer, repositories)
            guard let page = try repositories.messages.history(channelURL, query, viewer: viewer) else {
                throw Self.notFound(query.anchorMessageID ?? 0)
            }
            return try MessageDetails.attach(page, repositories)
        }
    }

    public func totalCount(_ caller: Caller, _ channelURL: String, viewerID: String?) async throws -> Int {
        let viewer = try caller.viewer(named: viewerID)
        return try await store.read { repositories in
            try repositories.messages.count(channelURL, viewer: try Self.viewer(channelURL, caller, viewer, repositories))
        }
    }

    public func get(_ caller: Caller, _ channelURL: String, _ messageID: Int64) async throws -> Message {
        try await store.read { try Self.readable(channelURL, messageID, caller, $0) }
    }

    /// The message as the caller reads it: 404 when they may not (see `viewer`), or it is removed
    /// (the admin reads removed ones too).
    static func readable(_ channelURL: String, _ messageID: Int64, _ caller: Caller, _ repositories: Repositories) throws -> Message {
        let viewer = try viewer(channelURL, caller, caller.userID, repositories)
        guard let message = try repositories.messages.find(channelURL, messageID, viewerID: viewer.userID),
            caller.isAdmin || (!message.isRemoved && message.createdAt >= viewer.visibleFrom)
        else { throw notFound(messageID) }
        return try MessageDetails.attach(message, repositories)
    }

    /// What `viewerID` may see of the channel's messages: session users must be joined members;
    /// reset history, hidden previous messages and the chat-history option move the earliest
    /// visible time forward, and blocks hide messages (API.md §7.3).
    static func viewer(_ channelURL: String, _ caller: Caller, _ viewerID: String?, _ repositories: Repositories) throws -> MessageViewer {
        let context = try ChannelContext.load(channelURL, caller, repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        if !caller.isAdmin && context.access.state != .joined {
            throw ParleyError.forbidden("Only joined members read the messages of \"\(channelURL)\".")
        }
        // Only the offsets: the full membership (inviter, unread counts) is not needed here.
        let visibleFrom = try viewerID.flatMap { try repositories.groupChannelMembers.visibleFrom(channelURL, $0) } ?? 0
        return MessageViewer(userID: viewerID, visibleFrom: visibleFrom)
    }

    static func notFound(_ messageID: Int64) -> ParleyError {
        ParleyError.notFound("Message \(messageID) not found.")
    }
}
