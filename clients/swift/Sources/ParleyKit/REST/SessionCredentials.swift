/// Asked for a new session token when the server refuses the current one (expired or revoked):
/// the app gets one from its own backend (which calls `POST /v3/users/{user_id}/token` with the
/// API token) and returns it; throwing ends the session, and so do three tokens in a row that the
/// event stream refuses as well.
public typealias SessionTokenProvider = @Sendable (_ userId: String) async throws -> String

/// The signed-in user's session token, renewed through the provider, once for all callers that
/// found it refused at the same time.
actor SessionCredentials {
    let userId: String
    private(set) var token: String
    private var provider: SessionTokenProvider?
    private var renewal: Task<String, any Error>?

    init(userId: String, token: String, provider: SessionTokenProvider?) {
        self.userId = userId
        self.token = token
        self.provider = provider
    }

    func setProvider(_ provider: SessionTokenProvider?) {
        self.provider = provider
    }

    /// A new token in place of `refused` (the one the caller was refused with); when another
    /// caller renewed it meanwhile, that one. Throws when there is no provider or it fails.
    func renew(refused: String) async throws -> String {
        if token != refused { return token }
        if let renewal { return try await renewal.value }
        guard let provider else {
            throw ParleyKitError(code: 400302, status: 401, message: "The session token was refused and no token provider is set.")
        }
        let userId = userId
        let task = Task { try await provider(userId) }
        renewal = task
        defer { renewal = nil }
        let fresh = try await task.value
        token = fresh
        return fresh
    }
}
