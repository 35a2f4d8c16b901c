import Foundation

/// Users of one test, each with a session token.
struct Cast {
    let ids: [String]
    let tokens: [String: String]

    subscript(_ index: Int) -> String { ids[index] }
    func session(_ index: Int) -> Credential { .session(tokens[ids[index]]!) }
}

extension API {
    /// Creates `count` users named after `prefix`, returning them with their tokens.
    func cast(_ prefix: String, _ count: Int) async throws -> Cast {
        let base = uniqueID(prefix)
        var ids: [String] = []
        var tokens: [String: String] = [:]
        for index in 0..<count {
            let id = "\(base)-\(index)"
            tokens[id] = try await createUser(id)
            ids.append(id)
        }
        return Cast(ids: ids, tokens: tokens)
    }

    /// Creates a channel and returns its url; fails the test on anything but 201.
    func createChannel(_ body: [String: Any], as credential: Credential = .admin) async throws -> String {
        let response = try await post("/v3/group_channels", body, as: credential)
        guard response.status == 201 else {
            throw TestFailure("creating a channel answered \(response.status): \(response.text)")
        }
        return try response.decode(ChannelBody.self).channelURL
    }

    /// The user ids of a channel's members list (first page of 100).
    func memberIDs(_ channelURL: String, _ query: String = "") async throws -> [String] {
        try await get("/v3/group_channels/\(channelURL)/members?limit=100\(query)").decode(MemberList.self).items.map(\.userID)
    }
}

extension APIResponse {
    /// The channel urls of a channel list response.
    var channelURLs: [String] {
        get throws { try decode(ChannelList.self).items.map(\.channelURL) }
    }
}
