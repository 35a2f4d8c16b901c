import Foundation

extension ParleyClient {
    /// Group channels (API.md §3), as the signed-in user.
    public var groupChannels: GroupChannelAPI { GroupChannelAPI(client: self) }
}

/// What a new group channel is: the seeds' properties (private or public, distinct, ephemeral,
/// supergroup, operators).
public struct GroupChannelCreateParams: Encodable, Sendable {
    public var userIds: [String]
    public var name: String?
    public var coverURL: String?
    public var customType: String?
    public var data: String?
    public var channelURL: String?
    public var isDistinct: Bool?
    public var isPublic: Bool?
    public var isSuper: Bool?
    public var isEphemeral: Bool?
    public var accessCode: String?
    public var operatorIds: [String]?

    public init(userIds: [String], name: String? = nil, isDistinct: Bool? = nil, isPublic: Bool? = nil, isSuper: Bool? = nil) {
        self.userIds = userIds
        self.name = name
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
    }
}

/// A change of a group channel: the fields given change, the rest stay.
public struct GroupChannelUpdateParams: Encodable, Sendable {
    public var name: String?
    public var coverURL: String?
    public var customType: String?
    public var data: String?
    public var isDistinct: Bool?
    public var isPublic: Bool?
    public var accessCode: String?

    public init(name: String? = nil, customType: String? = nil, data: String? = nil) {
        self.name = name
        self.customType = customType
        self.data = data
    }
}

/// The signed-in user's channel list (`my_group_channels`): its filters and order.
public struct MyChannelQuery: Sendable {
    /// `latest_last_message` (default), `chronological`, `channel_name_alphabetical`, or
    /// `metadata_value_alphabetical` (with `metadataOrderKey`).
    public var order: String?
    public var limit: Int = 20
    public var token: String?
    public var showEmpty: Bool?
    public var customTypes: [String]?
    public var nameContains: String?
    public var membersIncludeIn: [String]?
    /// `all`, `joined_only`, `invited_only`.
    public var memberStateFilter: String?
    /// `unhidden_only`, `hidden_only`, …
    public var hiddenMode: String?
    public var unreadOnly = false
    public var superMode: String?
    public var publicMode: String?
    public var metadataOrderKey: String?

    public init() {}

    var items: [URLQueryItem] {
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        func add(_ name: String, _ value: String?) { if let value { query.append(URLQueryItem(name: name, value: value)) } }
        add("order", order)
        add("token", token)
        add("show_empty", showEmpty.map { String($0) })
        add("custom_types", customTypes?.joined(separator: ","))
        add("name_contains", nameContains)
        add("members_include_in", membersIncludeIn?.joined(separator: ","))
        add("member_state_filter", memberStateFilter)
        add("hidden_mode", hiddenMode)
        add("unread_filter", unreadOnly ? "unread_message" : nil)
        add("super_mode", superMode)
        add("public_mode", publicMode)
        add("metadata_order_key", metadataOrderKey)
        return query
    }
}

public struct GroupChannelAPI: Sendable {
    let client: ParleyClient

    private func path(_ url: String, _ rest: String = "") -> String {
        "/v3/group_channels/\(RESTClient.segment(url))\(rest)"
    }

    public func create(_ params: GroupChannelCreateParams) async throws -> GroupChannel {
        try await client.rest().call("POST", "/v3/group_channels", body: params)
    }

    /// The channel as the signed-in user sees it, with its members.
    public func get(_ channelURL: String) async throws -> GroupChannel {
        try await client.rest().call("GET", path(channelURL), query: [URLQueryItem(name: "show_member", value: "true")])
    }

    public func update(_ channelURL: String, _ params: GroupChannelUpdateParams) async throws -> GroupChannel {
        try await client.rest().call("PUT", path(channelURL), body: params)
    }

    public func delete(_ channelURL: String) async throws {
        try await client.rest().call("DELETE", path(channelURL))
    }

    public func invite(_ channelURL: String, userIds: [String]) async throws -> GroupChannel {
        try await client.rest().call("POST", path(channelURL, "/invite"), body: ["user_ids": userIds])
    }

    public func acceptInvitation(_ channelURL: String, accessCode: String? = nil) async throws -> GroupChannel {
        try await client.rest().call("PUT", path(channelURL, "/accept"), body: accessCode.map { ["access_code": $0] } ?? [:])
    }

    public func declineInvitation(_ channelURL: String) async throws {
        try await client.rest().call("PUT", path(channelURL, "/decline"), body: EmptyBody())
    }

    /// Joins a public channel.
    public func join(_ channelURL: String, accessCode: String? = nil) async throws {
        try await client.rest().call("PUT", path(channelURL, "/join"), body: accessCode.map { ["access_code": $0] } ?? [:])
    }

    public func leave(_ channelURL: String) async throws {
        try await client.rest().call("PUT", path(channelURL, "/leave"), body: EmptyBody())
    }

    /// Hides the channel from the user's list (`allowAutoUnhide`: a new message shows it again;
    /// false archives it).
    public func hide(_ channelURL: String, hidePreviousMessages: Bool = false, allowAutoUnhide: Bool = true) async throws {
        try await client.rest().call(
            "PUT", path(channelURL, "/hide"),
            body: HideBody(hidePreviousMessages: hidePreviousMessages, allowAutoUnhide: allowAutoUnhide))
    }

    public func unhide(_ channelURL: String) async throws {
        try await client.rest().call("DELETE", path(channelURL, "/hide"))
    }

    /// Freezes or unfreezes the channel (its operators).
    public func setFrozen(_ channelURL: String, _ frozen: Bool) async throws -> GroupChannel {
        try await client.rest().call("PUT", path(channelURL, "/freeze"), body: ["freeze": frozen])
    }

    /// Clears the channel's history for the signed-in user.
    public func resetHistory(_ channelURL: String) async throws {
        try await client.rest().call("PUT", path(channelURL, "/reset_user_history"), body: EmptyBody())
    }

    public func members(_ channelURL: String, limit: Int = 20, token: String? = nil) async throws -> Page<Member> {
        try await client.rest().call("GET", path(channelURL, "/members"), query: Self.page(limit, token), as: ListBody<Member>.self).page
    }

    public func operators(_ channelURL: String, limit: Int = 20, token: String? = nil) async throws -> Page<User> {
        try await client.rest().call("GET", path(channelURL, "/operators"), query: Self.page(limit, token), as: ListBody<User>.self).page
    }

    public func addOperators(_ channelURL: String, userIds: [String]) async throws {
        try await client.rest().call("POST", path(channelURL, "/operators"), body: ["operator_ids": userIds])
    }

    public func removeOperators(_ channelURL: String, userIds: [String]) async throws {
        try await client.rest().call(
            "DELETE", path(channelURL, "/operators"), query: [URLQueryItem(name: "operator_ids", value: userIds.joined(separator: ","))])
    }

    /// The signed-in user's channels, with their unread counts and last messages.
    public func myChannels(_ query: MyChannelQuery = MyChannelQuery()) async throws -> Page<GroupChannel> {
        let rest = try client.rest()
        let path = "/v3/users/\(RESTClient.segment(rest.credentials.userId))/my_group_channels"
        return try await rest.call("GET", path, query: query.items, as: ListBody<GroupChannel>.self).page
    }

    static func page(_ limit: Int, _ token: String?) -> [URLQueryItem] {
        [URLQueryItem(name: "limit", value: String(limit))] + (token.map { [URLQueryItem(name: "token", value: $0)] } ?? [])
    }
}

private struct HideBody: Encodable, Sendable {
    let hidePreviousMessages: Bool
    let allowAutoUnhide: Bool
}
