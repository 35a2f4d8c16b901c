import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ParleyClient {
    /// Messages of group and open channels (API.md §4–5), as the signed-in user.
    public var messages: MessageAPI { MessageAPI(client: self) }
}

/// The progress of an upload: bytes sent of the whole request.
public typealias UploadProgress = @Sendable (_ sent: Int64, _ total: Int64) -> Void

public struct MessageAPI: Sendable {
    let client: ParleyClient

    private func path(_ type: ChannelType, _ url: String, _ rest: String = "") -> String {
        "/v3/\(type.pathSegment)/\(RESTClient.segment(url))/messages\(rest)"
    }

    public func sendUserMessage(_ channelURL: String, _ params: UserMessageParams, channelType: ChannelType = .group) async throws
        -> Message
    {
        try await client.rest().call("POST", path(channelType, channelURL), body: params)
    }

    /// Uploads a file as a file message, reporting progress; cancel the calling task to cancel it.
    public func sendFileMessage(
        _ channelURL: String, _ params: FileMessageParams, channelType: ChannelType = .group, progress: UploadProgress? = nil
    ) async throws -> Message {
        try await client.rest().upload(path(channelType, channelURL), params, progress: progress)
    }

    public func get(_ channelURL: String, messageId: Int64, channelType: ChannelType = .group) async throws -> Message {
        try await client.rest().call("GET", path(channelType, channelURL, "/\(messageId)"))
    }

    /// The messages around a point (`MessageListParams`), oldest first unless `reverse`.
    public func list(_ channelURL: String, _ params: MessageListParams, channelType: ChannelType = .group) async throws -> [Message] {
        try await client.rest().call("GET", path(channelType, channelURL), query: params.items, as: MessagesBody.self).messages
    }

    public func update(_ channelURL: String, messageId: Int64, _ params: MessageUpdateParams, channelType: ChannelType = .group)
        async throws -> Message
    {
        try await client.rest().call("PUT", path(channelType, channelURL, "/\(messageId)"), body: params)
    }

    public func delete(_ channelURL: String, messageId: Int64, channelType: ChannelType = .group) async throws {
        try await client.rest().call("DELETE", path(channelType, channelURL, "/\(messageId)"))
    }

    public func addReaction(_ channelURL: String, messageId: Int64, key: String, channelType: ChannelType = .group) async throws {
        try await client.rest().call("POST", path(channelType, channelURL, "/\(messageId)/reactions"), body: ["reaction": key])
    }

    public func removeReaction(_ channelURL: String, messageId: Int64, key: String, channelType: ChannelType = .group) async throws {
        try await client.rest().call(
            "DELETE", path(channelType, channelURL, "/\(messageId)/reactions"), query: [URLQueryItem(name: "reaction", value: key)])
    }

    /// Makes these meta array keys on the message, with their values (the seeds'
    /// `createMessageMetaArrayKeys`); the message after.
    public func createMetaArrayKeys(_ channelURL: String, messageId: Int64, _ arrays: [MetaArray], channelType: ChannelType = .group)
        async throws -> Message
    {
        try await client.rest().call(
            "POST", path(channelType, channelURL, "/\(messageId)/sorted_metaarray"), body: ["sorted_metaarray": arrays])
    }

    /// Adds values to the message's meta arrays (a key it lacks is made); the message after.
    public func addMetaArrayValues(_ channelURL: String, messageId: Int64, _ arrays: [MetaArray], channelType: ChannelType = .group)
        async throws -> Message
    {
        try await changeMetaArrays(channelURL, messageId, arrays, mode: "add", channelType)
    }

    /// Removes values from the message's meta arrays (the keys stay); the message after.
    public func removeMetaArrayValues(_ channelURL: String, messageId: Int64, _ arrays: [MetaArray], channelType: ChannelType = .group)
        async throws -> Message
    {
        try await changeMetaArrays(channelURL, messageId, arrays, mode: "remove", channelType)
    }

    /// Removes these keys, with their values, from the message's meta arrays; the message after.
    public func deleteMetaArrayKeys(_ channelURL: String, messageId: Int64, _ keys: [String], channelType: ChannelType = .group)
        async throws -> Message
    {
        try await client.rest().call(
            "DELETE", path(channelType, channelURL, "/\(messageId)/sorted_metaarray"),
            query: [URLQueryItem(name: "metaarray_keys", value: keys.joined(separator: ","))], as: Message.self)
    }

    private func changeMetaArrays(_ channelURL: String, _ messageId: Int64, _ arrays: [MetaArray], mode: String, _ type: ChannelType)
        async throws -> Message
    {
        try await client.rest().call(
            "PUT", path(type, channelURL, "/\(messageId)/sorted_metaarray"),
            body: MetaArrayChange(sortedMetaarray: arrays, mode: mode, upsert: true))
    }

    /// The message with translations into `languages` (API.md §9).
    public func translate(_ channelURL: String, messageId: Int64, into languages: [String], channelType: ChannelType = .group)
        async throws -> Message
    {
        try await client.rest().call("POST", path(channelType, channelURL, "/\(messageId)/translation"), body: ["target_langs": languages])
    }

    /// Messages changed (edited, reacted to, …) and deleted since `changeTS` or a previous page's
    /// token (EVENTS.md §11).
    public func changelogs(_ channelURL: String, since changeTS: Int64? = nil, token: String? = nil) async throws -> MessageChangelog {
        var query = [URLQueryItem(name: "limit", value: "200")]
        if let token {
            query.append(URLQueryItem(name: "token", value: token))
        } else if let changeTS {
            query.append(URLQueryItem(name: "change_ts", value: String(changeTS)))
        }
        return try await client.rest().call("GET", path(.group, channelURL, "/changelogs"), query: query)
    }
}

/// A page of a channel's message changelog.
public struct MessageChangelog: Sendable, Decodable {
    public let updated: [Message]
    public let deleted: [Int64]
    public let hasMore: Bool
    public let next: String?
}

private struct MetaArrayChange: Encodable, Sendable {
    let sortedMetaarray: [MetaArray]
    let mode: String
    let upsert: Bool
}

struct MessagesBody: Decodable {
    let messages: [Message]
}
