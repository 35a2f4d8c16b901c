import Foundation

extension ParleyClient {
    /// Open channels (API.md §8), as the signed-in user.
    public var openChannels: OpenChannelAPI { OpenChannelAPI(client: self) }
}

/// Which open channels to list: by name, URL or custom type.
public struct OpenChannelQuery: Sendable {
    public var nameContains: String?
    public var urlContains: String?
    public var customTypes: [String]?
    public var limit = 20
    public var token: String?

    public init(nameContains: String? = nil, urlContains: String? = nil, customTypes: [String]? = nil) {
        self.nameContains = nameContains
        self.urlContains = urlContains
        self.customTypes = customTypes
    }

    var items: [URLQueryItem] {
        var query = GroupChannelAPI.page(limit, token)
        if let nameContains { query.append(URLQueryItem(name: "name_contains", value: nameContains)) }
        if let urlContains { query.append(URLQueryItem(name: "url_contains", value: urlContains)) }
        if let customTypes { query.append(URLQueryItem(name: "custom_types", value: customTypes.joined(separator: ","))) }
        return query
    }
}

/// An open channel to create, or the fields of one to change (nil: unchanged).
public struct OpenChannelParams: Encodable, Sendable {
    /// Chosen by the server when nil (creation only).
    public var channelURL: String?
    public var name: String?
    public var coverURL: String?
    public var customType: String?
    public var data: String?
    /// Keeps no history: messages reach those present, and are gone.
    public var isEphemeral: Bool?
    public var operatorIds: [String]?

    public init(name: String? = nil, customType: String? = nil) {
        self.name = name
        self.customType = customType
    }
}

public struct OpenChannelAPI: Sendable {
    let client: ParleyClient

    private func path(_ channelURL: String, _ rest: String = "") -> String {
        "/v3/open_channels/\(RESTClient.segment(channelURL))\(rest)"
    }

    /// Creates an open channel; its creator may name operators (themself included).
    public func create(_ params: OpenChannelParams) async throws -> OpenChannel {
        try await client.rest().call("POST", "/v3/open_channels", body: params)
    }

    /// Changes the channel (its operators).
    public func update(_ channelURL: String, _ params: OpenChannelParams) async throws -> OpenChannel {
        var change = params
        change.channelURL = nil
        return try await client.rest().call("PUT", path(channelURL), body: change)
    }

    public func delete(_ channelURL: String) async throws {
        try await client.rest().call("DELETE", path(channelURL))
    }

    /// Freezes the channel (only operators speak) or thaws it.
    public func setFrozen(_ channelURL: String, _ frozen: Bool) async throws -> OpenChannel {
        try await client.rest().call("PUT", path(channelURL, "/freeze"), body: ["freeze": frozen])
    }

    public func list(_ query: OpenChannelQuery = OpenChannelQuery()) async throws -> Page<OpenChannel> {
        try await client.rest().call("GET", "/v3/open_channels", query: query.items, as: ListBody<OpenChannel>.self).page
    }

    public func get(_ channelURL: String) async throws -> OpenChannel {
        try await client.rest().call("GET", path(channelURL))
    }

    /// Enters the channel for as long as the event stream is open (on any of the user's devices),
    /// and returns once the server confirms (`participant_entered`); a refusal (full, banned) throws.
    /// ParleyKit enters it again after a reconnection, until `exit` or `disconnect`.
    public func enter(_ channelURL: String, timeout: Double = 10) async throws {
        try await confirmed(channelURL, frame: "enter", event: "participant_entered", timeout: timeout)
        try await client.connection().noteEntered(channelURL, true)
    }

    public func exit(_ channelURL: String, timeout: Double = 10) async throws {
        try await client.connection().noteEntered(channelURL, false)
        try await confirmed(channelURL, frame: "exit", event: "participant_exited", timeout: timeout)
    }

    public func participants(_ channelURL: String, limit: Int = 20, token: String? = nil) async throws -> Page<User> {
        try await client.rest().call(
            "GET", path(channelURL, "/participants"), query: GroupChannelAPI.page(limit, token),
            as: ListBody<User>.self
        ).page
    }

    /// Sends `frame` and waits for the event that confirms it, or the `error` frame that refuses it.
    private func confirmed(_ channelURL: String, frame: String, event: String, timeout: Double) async throws {
        let connection = try client.connection()
        let me = client.currentUserId
        let events = client.events()
        try await connection.send(["type": frame, "channel_url": channelURL])
        let outcome: ParleyKitError?? = await withTaskGroup(of: ParleyKitError??.self) { group in
            group.addTask {
                for await received in events {
                    if received.type == event, received.channelURL == channelURL,
                        received.users?.contains(where: { $0.userId == me }) == true
                    {
                        return .some(nil)
                    }
                    if received.type == "error", let code = received.errorCode {
                        return .some(ParleyKitError(code: code, status: 0, message: received.errorMessage ?? "refused"))
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch outcome {
        case .some(.none): return
        case .some(.some(let refusal)): throw refusal
        case .none: throw ParleyKitError(code: 0, status: 0, message: "No answer to \(frame) within \(timeout) s.")
        }
    }
}
