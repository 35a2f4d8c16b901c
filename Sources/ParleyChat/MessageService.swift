import OwnedTasks
import ParleyCore
import ParleyFiles
import ParleyLinkPreviews
import ParleyModeration
import ParleyStore
import ParleyTranslation

/// Messages of both kinds of channel (API.md §4.2–4.4, §8.2): reading here; sending in `MessageService+send`,
/// file uploads in `MessageService+upload`, edits and deletes in `MessageService+change`, translations
/// in `MessageService+translate`.
public struct MessageService: Sendable {
    let store: Store
    let clock: Clock
    let settings: ChatSettings
    let files: FileService
    let translator: MessageTranslator
    let previewer: LinkPreviewer?
    /// Where previews wait for their sender's turn; without it, no previews are made.
    let previews: PreviewQueue?
    /// Where a sender's activity is counted (API.md §14.5: daily active users).
    let activity: ActivityLog?
    /// Runs what follows a commit without delaying the request (late translations).
    let tasks: TaskOwner
    /// The domain and profanity filters by channel custom type (API.md §14.7); none without it.
    let filters: MessageFilters?

    public init(
        store: Store, clock: Clock, settings: ChatSettings, files: FileService, translator: MessageTranslator, tasks: TaskOwner,
        previewer: LinkPreviewer? = nil, previews: PreviewQueue? = nil, activity: ActivityLog? = nil, filters: MessageFilters? = nil
    ) {
        self.tasks = tasks
        self.filters = filters
        self.activity = activity
        self.store = store
        self.clock = clock
        self.settings = settings
        self.files = files
        self.translator = translator
        self.previewer = previewer
        self.previews = previews
    }

    /// A history window as `viewerID` (the session user, or the user the admin names) may see it.
    public func history(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ query: HistoryQuery, viewerID: String?) async throws
        -> MessageWindow
    {
        let (query, named) = try bounded(query, caller, viewerID: viewerID)
        let now = clock.nowMillis
        return try await store.replicaRead { repositories in
            let viewer = try Self.viewer(kind, channelURL, caller, named, now: now, repositories)
            var shown = try Self.window(channelURL, query, viewer, repositories)
            if query.includeParentMessageInfo {
                shown.messages = try Self.withParentInfo(shown.messages, channelURL, viewer, repositories)
            }
            return shown
        }
    }

    /// The query within the byte budget, and whose view it is: only the admin asks for removed
    /// messages, a session user reads as themself.
    func bounded(_ query: HistoryQuery, _ caller: Caller, viewerID: String?) throws -> (HistoryQuery, String?) {
        if query.includeRemoved { try caller.requireAdmin() }
        var query = query
        query.maxBytes = settings.limits.historyBytes
        return (query, try caller.viewer(named: viewerID))
    }

    /// A window's messages with their details; 404 when its anchor message is not in the channel.
    static func window(_ channelURL: String, _ query: HistoryQuery, _ viewer: MessageViewer, _ repositories: Repositories) throws
        -> MessageWindow
    {
        guard var window = try repositories.messages.history(channelURL, query, viewer: viewer) else {
            throw notFound(query.anchorMessageID ?? 0)
        }
        window.messages = try MessageDetails.attach(window.messages, repositories)
        return window
    }

    public func totalCount(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, viewerID: String?) async throws -> Int {
        let viewer = try caller.viewer(named: viewerID)
        let now = clock.nowMillis
        return try await store.replicaRead { repositories in
            try repositories.messages.count(channelURL, viewer: try Self.viewer(kind, channelURL, caller, viewer, now: now, repositories))
        }
    }

    public func get(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64) async throws -> Message {
        let now = clock.nowMillis
        return try await store.replicaRead { try Self.readable(kind, channelURL, messageID, caller, now: now, $0) }
    }

    /// The message as the caller reads it: 404 when they may not (see `viewer`), or it is removed
    /// (the admin reads removed ones too).
    static func readable(
        _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ caller: Caller, now: Int64, _ repositories: Repositories
    ) throws -> Message {
        let viewer = try viewer(kind, channelURL, caller, caller.userID, now: now, repositories)
        guard let message = try repositories.messages.find(channelURL, messageID, viewerID: viewer.userID),
            caller.isAdmin || (!message.isRemoved && message.createdAt >= viewer.visibleFrom)
        else { throw notFound(messageID) }
        return try MessageDetails.attach(message, repositories)
    }

    /// What `viewerID` may see of the channel's messages: session users must be joined members;
    /// reset history, hidden previous messages and the chat-history option move the earliest
    /// visible time forward, and blocks hide messages (API.md §7.3). An open channel's history
    /// is public (API.md §8.3), except to a user banned from it (900100).
    static func viewer(
        _ kind: ChannelKind, _ channelURL: String, _ caller: Caller, _ viewerID: String?, now: Int64, _ repositories: Repositories
    ) throws -> MessageViewer {
        let context = try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false)
        try context.requireReadContent(now: now, repositories)
        if kind == .open { return MessageViewer(userID: viewerID, visibleFrom: 0) }
        // Only the offsets: the full membership (inviter, unread counts) is not needed here.
        let visibleFrom = try viewerID.flatMap { try repositories.groupChannelMembers.visibleFrom(channelURL, $0) } ?? 0
        return MessageViewer(userID: viewerID, visibleFrom: visibleFrom)
    }

    static func notFound(_ messageID: Int64) -> ParleyError {
        ParleyError.notFound("Message \(messageID) not found.")
    }
}
