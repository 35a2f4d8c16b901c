/// An OAuth access token for a provider (FCM, HMS), fetched when needed and kept until a minute
/// before it expires. Callers arriving while it is being fetched wait for that one fetch.
actor AccessTokens {
    typealias Fetch = @Sendable () async throws -> (token: String, expiresInSeconds: Int64)

    private let fetch: Fetch
    private let now: @Sendable () -> Int64
    private var current: (token: String, expiresAt: Int64)?
    /// Non-nil while a fetch runs: who waits for it.
    private var waiting: [CheckedContinuation<String, any Error>]?

    init(now: @escaping @Sendable () -> Int64, fetch: @escaping Fetch) {
        self.now = now
        self.fetch = fetch
    }

    func token() async throws -> String {
        if let current, current.expiresAt - 60_000 > now() { return current.token }
        if waiting != nil {
            return try await withCheckedThrowingContinuation { waiting?.append($0) }
        }
        waiting = []
        do {
            let fresh = try await fetch()
            current = (fresh.token, now() + fresh.expiresInSeconds * 1000)
            for waiter in waiting ?? [] { waiter.resume(returning: fresh.token) }
            waiting = nil
            return fresh.token
        } catch {
            for waiter in waiting ?? [] { waiter.resume(throwing: error) }
            waiting = nil
            throw error
        }
    }

    /// Forgets a token the provider refused, so the next push fetches another.
    func invalidate() {
        current = nil
    }
}
