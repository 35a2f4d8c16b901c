import ParleyCore
import ParleyModeration
import ParleyStore

/// Group channels as moderation sees them (`ModeratedChannels`): who may moderate, how a banned
/// member leaves, the channel resource.
public struct GroupChannelModeration: ModeratedChannels {
    public init() {}

    public func moderationContext(_ channelURL: String, _ caller: Caller, _ repositories: Repositories) throws -> ModerationContext {
        let context = try ChannelContext.load(channelURL, caller, repositories)
        try context.access.requireView(channelURL)
        return ModerationContext(callerMayModerate: context.access.canManage) { userID in
            try repositories.groupChannelMembers.state(channelURL, userID)?.isOperator ?? false
        }
    }

    public func remove(_ userID: String, from channelURL: String, _ repositories: Repositories) throws {
        try MembershipService.leave(userID, channelURLs: [channelURL], repositories)
    }

    public func resource(_ channelURL: String, viewerID: String?, _ repositories: Repositories) throws -> ChannelResource {
        .group(try ChannelViews.one(channelURL, viewerID: viewerID, repositories))
    }

    public func reportedChannel(_ channelURL: String, reporterID: String, _ repositories: Repositories) throws -> ReportedChannel {
        let context = try ChannelContext.load(channelURL, .user(reporterID), repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        let channel = try ChannelViews.one(channelURL, viewerID: nil, repositories).channel
        return ReportedChannel(kind: .group, channelURL: channelURL, name: channel.name, customType: channel.customType)
    }

    public func reportedMessage(_ channelURL: String, _ messageID: Int64, reporterID: String, now: Int64, _ repositories: Repositories)
        throws -> Message
    {
        try MessageService.readable(.group, channelURL, messageID, .user(reporterID), now: now, repositories)
    }
}
