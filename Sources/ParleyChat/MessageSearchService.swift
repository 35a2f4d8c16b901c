import ParleyCore
import ParleyStore

/// Message search (API.md §13.5): what the caller may read (a session user: the group channels
/// they are a joined member of, as their history shows them; the admin: everything), newest or
/// best first, in pages.
public struct MessageSearchService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec

    public init(store: Store, pageTokens: PageTokenCodec) {
        self.store = store
        self.pageTokens = pageTokens
    }

    public func search(_ caller: Caller, _ search: MessageSearch, limit: Int, token: String?) async throws
        -> (messages: [Message], next: String)
    {
        let scope = "search"
        let offset =
            try token.map { token -> Int in
                guard let offset = Int(try pageTokens.decode(token, scope: scope).first ?? ""), offset >= 0 else {
                    throw ParleyError.invalidPageToken
                }
                return offset
            } ?? 0
        let page = try await store.read { repositories in
            let found = try repositories.search.search(search, viewerID: caller.userID, offset: offset, limit: limit + 1)
            return try MessageDetails.attach(Array(found.prefix(limit)), repositories) + found.dropFirst(limit)
        }
        let shown = Array(page.prefix(limit))
        return (shown, page.count > limit ? pageTokens.encode(scope: scope, position: [String(offset + limit)]) : "")
    }
}
