import ParleyCore
import ParleyStore

/// Blocks (API.md §7.3): a user (or the admin for them) blocks and unblocks others and lists
/// whom they block. Nothing announces a block: the blocked user is never told. What a block
/// changes in channels is applied where messages are written and read (see migration 0010).
public struct BlockService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec

    /// Users one request may block.
    public static let maxTargets = 100

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
    }

    /// Blocks `targetIDs` for `userID`; returns the blocked users. 404 for an unknown user, 400
    /// for an unknown target or the user themself.
    public func block(_ caller: Caller, _ userID: String, targetIDs: [String]) async throws -> [BasicUser] {
        try caller.requireActingAs(userID)
        var seen = Set<String>()
        let targets = targetIDs.filter { seen.insert($0).inserted }
        guard !targets.isEmpty else { throw ParleyError.missing("target_id") }
        guard targets.count <= Self.maxTargets else {
            throw ParleyError.invalidValue("user_ids", "at most \(Self.maxTargets) users at once")
        }
        guard !targets.contains(userID) else { throw ParleyError.invalidValue("target_id", "a user cannot block themself") }
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            let blocker = try Self.requireUser(userID, repositories)
            let users = try repositories.users.basicUsers(targets)
            if users.count < targets.count, let unknown = targets.first(where: { id in !users.contains { $0.userID == id } }) {
                throw ParleyError.unknownReference("User \"\(unknown)\" not found.")
            }
            try repositories.blocks.block(userID, targets, now: now)
            repositories.events.append(.webhookOnly(.userBlocked, payload: .block(blocker: blocker, blockees: users)))
            return users
        }
    }

    public func unblock(_ caller: Caller, _ userID: String, targetID: String) async throws {
        try caller.requireActingAs(userID)
        try await store.transaction { repositories in
            let blocker = try Self.requireUser(userID, repositories)
            guard try repositories.blocks.unblock(userID, targetID) else {
                throw ParleyError.notFound("\"\(userID)\" does not block \"\(targetID)\".")
            }
            let blockees = try repositories.users.basicUsers([targetID])
            repositories.events.append(.webhookOnly(.userUnblocked, payload: .block(blocker: blocker, blockees: blockees)))
        }
    }

    /// The users `userID` blocks, by user id (only those among `among` when given).
    public func list(_ caller: Caller, _ userID: String, among: [String]?, limit: Int, pageToken: String?) async throws -> Page<BasicUser> {
        try caller.requireActingAs(userID)
        let scope = "blocks|\(userID)|\(among?.joined(separator: ",") ?? "")"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }?.first
        let rows = try await store.read { repositories in
            try Self.requireUser(userID, repositories)
            return try repositories.blocks.blocked(by: userID, among: among, afterUserID: after, limit: limit + 1)
        }
        let page = rows.prefix(limit)
        return Page(items: Array(page), positions: page.map { [$0.userID] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    @discardableResult
    private static func requireUser(_ userID: String, _ repositories: Repositories) throws -> BasicUser {
        guard let user = try repositories.users.basicUsers([userID]).first else {
            throw ParleyError.notFound("User \"\(userID)\" not found.")
        }
        return user
    }
}
