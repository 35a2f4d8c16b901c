import Foundation

/// What the participant suites share: a new open channel, and its participants as the list and the count show them.
protocol ParticipantFixtures {}

extension ParticipantFixtures {
    /// A new open channel; returns its URL.
    static func openChannel(_ api: API, _ body: [String: Any] = [:]) async throws -> String {
        let response = try await api.post("/v3/open_channels", body)
        guard response.status == 201, let url = response.rawJSON["channel_url"] as? String else {
            throw TestFailure("creating an open channel answered \(response.status): \(response.text)")
        }
        return url
    }

    static func participantIDs(_ api: API, _ url: String) async throws -> [String] {
        let list = try await api.get("/v3/open_channels/\(url)/participants?limit=100").rawJSON["participants"] as? [[String: Any]]
        return (list ?? []).compactMap { $0["user_id"] as? String }
    }

    static func participantCount(_ api: API, _ url: String) async throws -> Int? {
        try await api.get("/v3/open_channels/\(url)").rawJSON["participant_count"] as? Int
    }
}
