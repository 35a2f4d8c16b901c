import ParleyCore
import ParleyStore

/// How much of the server message search may take (issue 50.1).
public struct SearchSettings: Sendable {
    /// `PARLEY_SEARCH_CONNECTIONS`: database connections of searches' own, per instance: searches
    /// run only on these, so however many run, the rest of the API keeps every connection of the
    /// main pool.
    public var connections = 2
    /// `PARLEY_SEARCH_TIMEOUT_MS`: a search's statement timeout (503 past it), shorter than the
    /// other statements'.
    public var statementTimeout: Duration = .seconds(3)
    /// `PARLEY_SEARCHES_PER_USER`: a user's searches running or waiting on an instance; more are
    /// refused 429 at once. One of them runs at a time.
    public var perUser = 2
    /// `PARLEY_SEARCH_RANKED`: the newest matches a search by score ranks.
    public var ranked = 1_000
    /// How long a search waits for its turn before it is answered 503.
    public var patience: Duration = .seconds(5)

    public init() {}
}

/// Message search (API.md §13.5): what the caller may read (a session user: the group channels
/// they are a joined member of, as their history shows them; the admin: everything), newest or
/// best first, in pages.
///
/// One user cannot take search, or the database, away from the others (issue 50.1): searches
/// take turns by user (`FairGate`: at most `perUser` held, one running, users in turn), run only
/// on the connections of `store`'s own pool with its shorter statement timeout, and each costs a
/// bounded amount (`SearchRepository`, and the terms a query may have, `Limits.searchTerms`).
public struct MessageSearchService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec
    let settings: SearchSettings
    let gate: FairGate

    /// `store` is the searches' own (its pool of `settings.connections`).
    public init(store: Store, pageTokens: PageTokenCodec, settings: SearchSettings) {
        self.store = store
        self.pageTokens = pageTokens
        self.settings = settings
        self.gate = FairGate(.init(capacity: settings.connections, runningPerUser: 1, heldPerUser: settings.perUser))
    }

    public func search(_ caller: Caller, _ search: MessageSearch, limit: Int, token: String?) async throws -> Page<Message> {
        let scope = Self.scope(search)
        let page = try self.page(of: search, token: token, scope: scope)
        let found = try await inTurn(of: caller) {
            try await store.replicaRead { repositories in
                let found = try repositories.search.search(search, viewerID: caller.userID, page: page, limit: limit + 1)
                return try MessageDetails.attach(Array(found.prefix(limit)), repositories) + found.dropFirst(limit)
            }
        }
        let shown = Array(found.prefix(limit))
        let positions: [[String]] =
            switch page {
            case .newest: shown.map { [String($0.createdAt), String($0.messageID)] }
            case .best(let offset, _): shown.indices.map { [String(offset + $0 + 1)] }
            }
        return Page(items: shown, positions: positions, more: found.count > limit, tokens: pageTokens, scope: scope)
    }

    /// Runs `body` in the caller's turn: 429 (with `Retry-After`) when the caller already has
    /// as many searches as allowed, 503 when the turn did not come in time.
    private func inTurn<T: Sendable>(of caller: Caller, _ body: () async throws -> T) async throws -> T {
        do {
            return try await gate.turn(user: caller.userID ?? "", cost: 1, patience: settings.patience, body)
        } catch FairGate.NoTurn.userHoldsTooMany {
            throw ParleyError.rateLimited(retryAfter: 1)
        } catch FairGate.NoTurn.notWithinPatience {
            throw ParleyError.unavailable
        }
    }

    /// Where the page `token` continues (a token is only good for the search that made it).
    private func page(of search: MessageSearch, token: String?, scope: String) throws -> SearchRepository.Page {
        let position = try token.map { try pageTokens.decode($0, scope: scope) }
        if search.byScore {
            guard let position else { return .best(offset: 0, ranked: settings.ranked) }
            guard position.count == 1, let offset = Int(position[0]), offset >= 0 else { throw ParleyError.invalidPageToken }
            return .best(offset: offset, ranked: settings.ranked)
        }
        guard let position else { return .newest(after: nil) }
        guard position.count == 2, let createdAt = Int64(position[0]), let messageID = Int64(position[1]) else {
            throw ParleyError.invalidPageToken
        }
        return .newest(after: (createdAt, messageID))
    }

    /// The search a page token belongs to: its query, filters and order.
    private static func scope(_ search: MessageSearch) -> String {
        let parts: [String?] = [
            search.query, search.channelURL, search.customType, search.senderID, search.from.map(String.init), search.to.map(String.init),
            search.byScore ? "score" : "ts", search.exactMatch ? "exact" : "", search.advanced ? "advanced" : ""
        ]
        return "search|" + parts.map { $0 ?? "-" }.joined(separator: "|")
    }
}
