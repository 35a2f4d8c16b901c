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
        let rest = try client.rest()
        let form = MultipartForm(fields: params.fields, fileName: params.fileName, mimeType: params.mimeType, file: params.file)
        let data = try await rest.perform("POST", path(channelType, channelURL), contentType: form.contentType) { request in
            try await Uploader.upload(request, body: form.body, session: rest.urlSession, progress: progress)
        }
        return try JSONCoding.decoder.decode(Message.self, from: data)
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

struct MessagesBody: Decodable {
    let messages: [Message]
}
