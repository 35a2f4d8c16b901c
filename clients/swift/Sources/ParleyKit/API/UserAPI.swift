import Foundation

extension ParleyClient {
    /// The signed-in user's profile and metadata, other users' profiles, and channel metadata.
    public var users: UserAPI { UserAPI(client: self) }
}

public struct UserAPI: Sendable {
    let client: ParleyClient

    private func me() throws -> (RESTClient, String) {
        let rest = try client.rest()
        return (rest, "/v3/users/\(RESTClient.segment(rest.credentials.userId))")
    }

    /// A user as others see them (presence included).
    public func get(_ userId: String) async throws -> User {
        try await client.rest().call("GET", "/v3/users/\(RESTClient.segment(userId))")
    }

    /// Changes the signed-in user's nickname or profile image URL (nil: unchanged).
    public func updateProfile(nickname: String? = nil, profileURL: String? = nil) async throws -> User {
        let (rest, path) = try me()
        return try await rest.call("PUT", path, body: ProfileChange(nickname: nickname, profileURL: profileURL))
    }

    /// The signed-in user's metadata.
    public func myMetadata() async throws -> [String: String] {
        let (rest, path) = try me()
        return try await rest.call("GET", path + "/metadata")
    }

    /// Writes these keys of the signed-in user's metadata (others stay); the written entries.
    @discardableResult
    public func updateMyMetadata(_ values: [String: String]) async throws -> [String: String] {
        let (rest, path) = try me()
        return try await rest.call("PUT", path + "/metadata", body: MetadataChange(metadata: values, upsert: true))
    }

    /// Removes a key of the signed-in user's metadata.
    public func deleteMyMetadata(key: String) async throws {
        let (rest, path) = try me()
        try await rest.call("DELETE", path + "/metadata/\(RESTClient.segment(key))")
    }

    /// Whether invitations join the user at once (true) or wait for them to accept.
    public func channelInvitationPreference() async throws -> Bool {
        let (rest, path) = try me()
        return try await rest.call("GET", path + "/channel_invitation_preference", as: InvitationPreference.self).autoAccept
    }

    public func setChannelInvitationPreference(autoAccept: Bool) async throws {
        let (rest, path) = try me()
        try await rest.call("PUT", path + "/channel_invitation_preference", body: InvitationPreference(autoAccept: autoAccept))
    }

    /// A channel's metadata (those who read the channel).
    public func channelMetadata(_ channelURL: String, channelType: ChannelType = .group) async throws -> [String: String] {
        try await client.rest().call("GET", "/v3/\(channelType.pathSegment)/\(RESTClient.segment(channelURL))/metadata")
    }

    /// Writes these keys of a channel's metadata (its operators); others stay.
    @discardableResult
    public func updateChannelMetadata(_ channelURL: String, _ values: [String: String], channelType: ChannelType = .group) async throws
        -> [String: String]
    {
        try await client.rest().call(
            "PUT", "/v3/\(channelType.pathSegment)/\(RESTClient.segment(channelURL))/metadata",
            body: MetadataChange(metadata: values, upsert: true))
    }

    /// Removes a key of a channel's metadata (its operators).
    public func deleteChannelMetadata(_ channelURL: String, key: String, channelType: ChannelType = .group) async throws {
        try await client.rest().call(
            "DELETE", "/v3/\(channelType.pathSegment)/\(RESTClient.segment(channelURL))/metadata/\(RESTClient.segment(key))")
    }
}

private struct InvitationPreference: Codable, Sendable {
    let autoAccept: Bool
}

private struct ProfileChange: Encodable, Sendable {
    let nickname: String?
    let profileURL: String?
}

private struct MetadataChange: Encodable, Sendable {
    let metadata: [String: String]
    let upsert: Bool
}
