import ParleyCore
import ParleyStore

/// The audit log (API.md §7.5): the admin reads it; the services append to it in their actions'
/// transactions (`repositories.auditLogs`), and nothing changes a row.
public struct AuditLogService: Sendable {
    let store: Store
    let pageTokens: PageTokenCodec

    public init(store: Store, pageTokens: PageTokenCodec) {
        self.store = store
        self.pageTokens = pageTokens
    }

    public func list(_ caller: Caller, _ filter: AuditFilter, limit: Int, pageToken: String?) async throws -> Page<AuditEntry> {
        try caller.requireAdmin()
        let scope =
            "audit|\(filter.action?.rawValue ?? "")|\(filter.actorID ?? "")|\(filter.targetUserID ?? "")|\(filter.channelURL ?? "")"
            + "|\(filter.startTS.map(String.init) ?? "")|\(filter.endTS.map(String.init) ?? "")"
        let before = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { $0.first.flatMap { Int64($0) } }
        let rows = try await store.read { try $0.auditLogs.list(filter, beforeID: before, limit: limit + 1) }
        let page = rows.prefix(limit)
        return Page(
            items: Array(page), positions: page.map { [String($0.auditID)] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }
}
