import OutboundPolicy
import ParleyCore
import ParleyStore
import Synchronization

/// Who may use the API as the admin (API.md §14.7, Sendbird's `/v3/applications/api_tokens` and
/// `…/settings/ip_whitelist`): secondary API tokens, made with the master token and revocable,
/// and the addresses API tokens are accepted from.
public final class ApiAccess: Sendable {
    let store: Store
    let clock: Clock
    let authenticator: Authenticator
    /// The allow-list as requests are checked against it, read at most once a second per instance
    /// (another instance's change applies here within that second; this one's at once).
    private let cached = Mutex<(networks: [IPNetwork], readAt: Int64)?>(nil)
    static let cacheMillis: Int64 = 1_000
    /// The most secondary tokens, and allow-list entries, there may be.
    public static let maxEntries = 100

    public init(store: Store, clock: Clock, authenticator: Authenticator) {
        self.store = store
        self.clock = clock
        self.authenticator = authenticator
    }

    /// A new secondary token, shown this once. Only the master token makes one: the request must
    /// come with it (`presentedToken`, its `Api-Token`) and name it again in the body
    /// (`masterToken`, Sendbird's `HTTP_API_TOKEN`); a secondary token is refused 403 even when
    /// the body names the master token, so that a leaked secondary token can never multiply.
    public func generate(_ caller: Caller, presentedToken: String?, masterToken: String?) async throws -> (token: String, createdAt: Int64)
    {
        try caller.requireAdmin()
        guard let presentedToken, authenticator.isMasterToken(presentedToken) else {
            throw ParleyError.forbidden("Only the master API token makes API tokens.")
        }
        guard let masterToken, authenticator.isMasterToken(masterToken) else {
            throw ParleyError.forbidden("\"HTTP_API_TOKEN\" must be the master API token.")
        }
        let (made, now) = (SecondaryApiToken.make(), clock.nowMillis)
        try await store.transaction { repositories in
            guard try repositories.applicationSecurity.tokens().count < Self.maxEntries else {
                throw ParleyError.tooMany("At most \(Self.maxEntries) secondary API tokens; revoke one first.")
            }
            try repositories.applicationSecurity.insertToken(selector: made.selector, secretHash: made.secretHash, now: now)
        }
        return (made.token, now)
    }

    /// The secondary tokens, each by its selector (the secret is never shown again).
    public func tokens(_ caller: Caller) async throws -> [(selector: String, createdAt: Int64)] {
        try caller.requireAdmin()
        return try await store.read { try $0.applicationSecurity.tokens() }
    }

    /// The token a path names (whole, or by its selector); 404 for none.
    public func token(_ caller: Caller, named value: String) async throws -> (selector: String, createdAt: Int64) {
        try caller.requireAdmin()
        let selector = try Self.selector(value)
        guard let createdAt = try await store.read({ try $0.applicationSecurity.token(selector: selector) }) else {
            throw Self.noToken
        }
        return (selector, createdAt)
    }

    /// Revokes a token: it stops working at once on every instance.
    public func revoke(_ caller: Caller, named value: String) async throws -> (selector: String, createdAt: Int64) {
        let token = try await token(caller, named: value)
        guard try await store.transaction({ try $0.applicationSecurity.deleteToken(selector: token.selector) }) else { throw Self.noToken }
        return token
    }

    public func allowList(_ caller: Caller) async throws -> [String] {
        try caller.requireAdmin()
        return try await store.fetch(ApplicationSecurityRepository.allowList)
    }

    /// Adds addresses or CIDR ranges (400111 for one that is neither); returns the whole list.
    public func allow(_ caller: Caller, _ entries: [String]) async throws -> [String] {
        try caller.requireAdmin()
        let entries = try Self.networks(entries)
        let now = clock.nowMillis
        try await store.transaction { repositories in
            try repositories.applicationSecurity.allow(entries, now: now)
            guard try repositories.applicationSecurity.allowListCount() <= Self.maxEntries else {
                throw ParleyError.invalidValue("ip_whitelist_addresses", "at most \(Self.maxEntries) entries")
            }
        }
        cached.withLock { $0 = nil }
        return try await allowList(caller)
    }

    /// Removes addresses or ranges; returns the whole list.
    public func disallow(_ caller: Caller, _ entries: [String]) async throws -> [String] {
        try caller.requireAdmin()
        let entries = try Self.networks(entries)
        try await store.transaction { try $0.applicationSecurity.disallow(entries) }
        cached.withLock { $0 = nil }
        return try await allowList(caller)
    }

    /// Whether an API token may be used from `address` (always, while the list is empty).
    public func admits(_ address: @autoclosure () -> String) async throws -> Bool {
        let now = clock.nowMillis
        var networks = cached.withLock { cache in cache.flatMap { now - $0.readAt < Self.cacheMillis ? $0.networks : nil } }
        if networks == nil {
            let read = try await store.fetch(ApplicationSecurityRepository.allowList).compactMap(IPNetwork.init)
            cached.withLock { $0 = (read, now) }
            networks = read
        }
        guard let networks, !networks.isEmpty else { return true }
        return networks.holds(address())
    }

    private static func networks(_ entries: [String]) throws -> [String] {
        guard !entries.isEmpty else { throw ParleyError.missing("ip_whitelist_addresses") }
        guard entries.count <= maxEntries else {
            throw ParleyError.invalidValue("ip_whitelist_addresses", "at most \(maxEntries) entries")
        }
        for entry in entries where IPNetwork(entry) == nil {
            throw ParleyError.invalidValue("ip_whitelist_addresses", "\"\(entry)\" is not an IP address or CIDR range")
        }
        return entries
    }

    private static func selector(_ value: String) throws -> String {
        guard let selector = SecondaryApiToken.selector(named: value) else { throw noToken }
        return selector
    }

    static let noToken = ParleyError.notFound("No such secondary API token.")
}
