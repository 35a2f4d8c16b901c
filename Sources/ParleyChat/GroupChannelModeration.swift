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

    public func resource(_ channelURL: String, viewerID: String?, _ repositories: Repositories) throws -> ChannelView {
        try ChannelViews.one(channelURL, viewerID: viewerID, repositories)
    }
}
