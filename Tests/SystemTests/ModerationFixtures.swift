/// What the moderation suites share: a message sent into a group channel as one user.
protocol ModerationFixtures {}

extension ModerationFixtures {
    /// Sends `text` from `userID` into `channel` with `credential` (the admin's unless told).
    func message(_ api: API, _ channel: String, from userID: String, _ text: String, as credential: Credential = .admin)
        async throws -> APIResponse
    {
        try await api.post(
            "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": userID, "message": text], as: credential)
    }
}
