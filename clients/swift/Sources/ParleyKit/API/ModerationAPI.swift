import Foundation

extension ParleyClient {
    /// Blocks, reports, bans and mutes (API.md §7), as the signed-in user.
    public var moderation: ModerationAPI { ModerationAPI(client: self) }
}

/// What a report is about (API.md §7.4).
public enum ReportCategory: String, Sendable, Encodable {
    case suspicious, harassing, inappropriate, spam
}

public struct ModerationAPI: Sendable {
    let client: ParleyClient

    private func me() throws -> (RESTClient, String) {
        let rest = try client.rest()
        return (rest, RESTClient.segment(rest.credentials.userId))
    }

    public func block(_ userId: String) async throws {
        let (rest, me) = try me()
        try await rest.call("POST", "/v3/users/\(me)/block", body: ["target_id": userId])
    }

    public func unblock(_ userId: String) async throws {
        let (rest, me) = try me()
        try await rest.call("DELETE", "/v3/users/\(me)/block/\(RESTClient.segment(userId))")
    }

    public func blockedUsers(limit: Int = 20, token: String? = nil) async throws -> Page<User> {
        let (rest, me) = try me()
        return try await rest.call("GET", "/v3/users/\(me)/block", query: GroupChannelAPI.page(limit, token), as: ListBody<User>.self).page
    }

    public func reportUser(_ userId: String, category: ReportCategory, description: String? = nil) async throws {
        try await report("/v3/report/users/\(RESTClient.segment(userId))", category, description)
    }

    public func reportChannel(_ channelURL: String, channelType: ChannelType = .group, category: ReportCategory, description: String? = nil)
        async throws
    {
        try await report("/v3/report/\(channelType.pathSegment)/\(RESTClient.segment(channelURL))", category, description)
    }

    public func reportMessage(
        _ channelURL: String, messageId: Int64, channelType: ChannelType = .group, category: ReportCategory, description: String? = nil
    ) async throws {
        try await report(
            "/v3/report/\(channelType.pathSegment)/\(RESTClient.segment(channelURL))/messages/\(messageId)", category, description)
    }

    private func report(_ path: String, _ category: ReportCategory, _ description: String?) async throws {
        let (rest, _) = try me()
        try await rest.call("POST", path, body: ReportBody(reportCategory: category, reportDescription: description))
    }

    /// A channel's banned users (its operators).
    public func bannedUsers(_ channelURL: String, channelType: ChannelType = .group, limit: Int = 20, token: String? = nil) async throws
        -> Page<Restriction>
    {
        try await restrictions("ban", channelURL, channelType, limit, token)
    }

    public func mutedUsers(_ channelURL: String, channelType: ChannelType = .group, limit: Int = 20, token: String? = nil) async throws
        -> Page<Restriction>
    {
        try await restrictions("mute", channelURL, channelType, limit, token)
    }

    /// Bans `userId` from the channel for `seconds` (-1: for good), as one of its operators.
    public func ban(_ channelURL: String, userId: String, seconds: Int = -1, description: String? = nil, channelType: ChannelType = .group)
        async throws
    {
        try await restrict("ban", channelURL, channelType, RestrictionBody(userId: userId, seconds: seconds, description: description))
    }

    public func mute(_ channelURL: String, userId: String, seconds: Int = -1, description: String? = nil, channelType: ChannelType = .group)
        async throws
    {
        try await restrict("mute", channelURL, channelType, RestrictionBody(userId: userId, seconds: seconds, description: description))
    }

    public func unban(_ channelURL: String, userId: String, channelType: ChannelType = .group) async throws {
        try await lift("ban", channelURL, channelType, userId)
    }

    public func unmute(_ channelURL: String, userId: String, channelType: ChannelType = .group) async throws {
        try await lift("mute", channelURL, channelType, userId)
    }

    private func lift(_ kind: String, _ channelURL: String, _ type: ChannelType, _ userId: String) async throws {
        try await client.rest().call(
            "DELETE", "/v3/\(type.pathSegment)/\(RESTClient.segment(channelURL))/\(kind)/\(RESTClient.segment(userId))")
    }

    private func restrictions(_ kind: String, _ channelURL: String, _ type: ChannelType, _ limit: Int, _ token: String?) async throws
        -> Page<Restriction>
    {
        try await client.rest().call(
            "GET", "/v3/\(type.pathSegment)/\(RESTClient.segment(channelURL))/\(kind)", query: GroupChannelAPI.page(limit, token),
            as: ListBody<Restriction>.self
        ).page
    }

    private func restrict(_ kind: String, _ channelURL: String, _ type: ChannelType, _ body: RestrictionBody) async throws {
        try await client.rest().call("POST", "/v3/\(type.pathSegment)/\(RESTClient.segment(channelURL))/\(kind)", body: body)
    }
}

/// A ban or mute: who, since and until when (-1: for good).
public struct Restriction: Sendable, Decodable {
    public let user: User
    public let startAt: Int64?
    public let endAt: Int64?
    public let description: String?
}

private struct ReportBody: Encodable, Sendable {
    let reportCategory: ReportCategory
    let reportDescription: String?
}

private struct RestrictionBody: Encodable, Sendable {
    let userId: String
    let seconds: Int
    let description: String?
}
