import ParleyCore
import ParleyStore

/// Channels as one viewer sees them (API.md §3.1): the channel with its operators, the viewer's
/// membership and the newest message they can read; a few batched queries per page, never one
/// per channel.
enum ChannelViews {
    /// The channels with these urls in the given order (unknown ones skipped); `viewerID` nil
    /// is the admin's view, with no per-user fields.
    static func load(_ channelURLs: [String], viewerID: String?, _ repositories: Repositories) throws -> [ChannelView] {
        guard !channelURLs.isEmpty else { return [] }
        let reader = repositories.groupChannelReader
        let channels = try reader.channels(channelURLs)
        let operators = try reader.operators(channelURLs)
        let memberships = try viewerID.map { try reader.memberships(channelURLs, userID: $0) } ?? [:]
        let lastMessages = try repositories.messages.lastMessages(channelURLs, viewerID: viewerID)
        let pinning = channels.filter { !$0.value.pinnedMessageIDs.isEmpty }.map(\.key)
        let lastPinned = pinning.isEmpty ? [:] : try repositories.pins.lastPinned(pinning, viewerID: viewerID)
        let details = Dictionary(
            try MessageDetails.attach(Array(lastMessages.values), repositories).map { ($0.channelURL, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        return channelURLs.compactMap { url in
            guard let row = channels[url] else { return nil }
            var channel = row.channel
            channel.operators = operators[url] ?? []
            var view = ChannelView(
                channel: channel, viewerID: viewerID, membership: memberships[url], members: nil, lastMessage: details[url])
            view.pinnedMessageIDs = row.pinnedMessageIDs
            view.lastPinnedMessage = lastPinned[url]
            return view
        }
    }

    /// One channel that the transaction has just read or changed, so it exists.
    static func one(_ channelURL: String, viewerID: String?, _ repositories: Repositories) throws -> ChannelView {
        guard let view = try load([channelURL], viewerID: viewerID, repositories).first else { throw ChannelAccess.notFound(channelURL) }
        return view
    }
}
