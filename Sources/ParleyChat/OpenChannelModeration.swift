import ParleyCore
import ParleyModeration
import ParleyStore

/// Open channels as moderation sees them (`ModeratedChannels`): the channel's operators and the
/// admin moderate, a banned participant exits at once, and anyone may report what is in it.
public struct OpenChannelModeration: ModeratedChannels {
    public init() {}

    public func moderationContext(_ channelURL: String, _ caller: Caller, _ repositories: Repositories) throws -> ModerationContext {
        let context = try ChannelContext.load(.open, channelURL, caller, repositories)
        return ModerationContext(callerMayModerate: context.access.canManage) { userID in
            try repositories.openChannels.isOperator(channelURL, userID)
        }
    }

    public func remove(_ userID: String, from channelURL: String, _ repositories: Repositories) throws {
        try ParticipantService.exit(channelURL, [userID], repositories)
    }

    public func resource(_ channelURL: String, viewerID: String?, _ repositories: Repositories) throws -> ChannelResource {
        .open(try OpenChannelService.channel(channelURL, repositories))
    }

    public func reportedChannel(_ channelURL: String, reporterID: String, _ repositories: Repositories) throws -> ReportedChannel {
        let channel = try OpenChannelService.channel(channelURL, repositories)
        return ReportedChannel(kind: .open, channelURL: channelURL, name: channel.name, customType: channel.customType)
    }

    public func reportedMessage(_ channelURL: String, _ messageID: Int64, reporterID: String, now: Int64, _ repositories: Repositories)
        throws -> Message
    {
        try MessageService.readable(.open, channelURL, messageID, .user(reporterID), now: now, repositories)
    }
}
