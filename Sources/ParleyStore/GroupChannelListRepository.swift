import ParleyCore
import Postgres

/// Which channels a listing starts from.
public enum ChannelListScope: Sendable {
    /// `my_group_channels`: the user's memberships, read from their member rows' sort indexes.
    case memberOf(String)
    /// `GET /v3/group_channels`: every channel (`viewer` nil, the admin), or the public channels
    /// plus the viewer's own when `restrictToVisible`.
    case all(viewer: String?, restrictToVisible: Bool)
}

/// The keyset-paginated channel lists of API.md §3.8–3.9: one index range per order, the
/// filters as conditions, no OFFSET.
public struct GroupChannelListRepository {
    let connection: PostgresConnection

    /// Up to `limit` channel urls after `after` (a position from an earlier page), each with its
    /// position for the next page token.
    public func page(_ scope: ChannelListScope, _ filter: ChannelFilter, after: [String]?, limit: Int) throws -> [(
        url: String, position: [String]
    )] {
        var sql = SQLBuilder()
        let from: String
        let sortTable: String
        switch scope {
        case .memberOf(let userID):
            from = "group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url"
            sortTable = "m"
            sql.where("m.user_id = \(sql.bind(userID))")
            applyMembershipFilters(filter, &sql)
        case .all(let viewer, let restrictToVisible):
            if let viewer {
                from =
                    "group_channels c LEFT JOIN group_channel_members m ON m.channel_url = c.channel_url AND m.user_id = \(sql.bind(viewer))"
                if restrictToVisible { sql.where("(c.is_public OR m.user_id IS NOT NULL)") }
                if filter.hiddenMode != .all || filter.memberState != .all || filter.unreadOnly { sql.where("m.user_id IS NOT NULL") }
                applyMembershipFilters(filter, &sql)
            } else {
                from = "group_channels c"
            }
            sortTable = "c"
        }
        applyChannelFilters(filter, &sql)
        let order = sortColumns(filter, sortTable: sortTable, sql: &sql)
        var join = ""
        if filter.order == .metadataValueAlphabetical {
            join =
                " LEFT JOIN group_channel_metadata md ON md.channel_url = c.channel_url AND md.key = \(sql.bind(filter.metadataOrderKey ?? ""))"
        }
        if let after {
            guard after.count == order.columns.count else { throw ParleyError.invalidPageToken }
            let placeholders = zip(after, order.types).map { value, type in "\(sql.bind(value))::\(type)" }
            sql.where(
                "(\(order.columns.joined(separator: ", "))) \(order.descending ? "<" : ">") (\(placeholders.joined(separator: ", ")))")
        }
        let direction = order.descending ? " DESC" : ""
        let statement = """
            SELECT c.channel_url, \(order.columns.enumerated().map { "\($1) AS k\($0)" }.joined(separator: ", "))
            FROM \(from)\(join) \(sql.whereClause)
            ORDER BY \(order.columns.map { $0 + direction }.joined(separator: ", "))
            LIMIT \(sql.bind(limit))
            """
        let rows = try connection.query(statement, sql.parameters)
        return try rows.map { row in
            let position = try (0..<order.columns.count).map { try row.decode("k\($0)", as: String.self) }
            return (try row.decode("channel_url"), position)
        }
    }

    /// The sort columns of each order, their SQL types for the cursor, and the direction.
    private func sortColumns(_ filter: ChannelFilter, sortTable s: String, sql: inout SQLBuilder) -> (
        columns: [String], types: [String], descending: Bool
    ) {
        switch filter.order {
        case .latestLastMessage:
            return (["\(s).activity_at", "\(s).channel_url"], ["bigint", "text"], true)
        case .chronological:
            return ([s == "m" ? "m.channel_created_at" : "c.created_at", "\(s).channel_url"], ["bigint", "text"], true)
        case .channelNameAlphabetical:
            return (["\(s).name_sort_key", "\(s).channel_url"], ["text", "text"], false)
        case .metadataValueAlphabetical:
            // Channels without the key come last: false sorts before true.
            return (["(md.value IS NULL)", "COALESCE(md.value, '')", "c.channel_url"], ["boolean", "text", "text"], false)
        }
    }

    private func applyMembershipFilters(_ filter: ChannelFilter, _ sql: inout SQLBuilder) {
        switch filter.hiddenMode {
        case .unhiddenOnly: sql.where("m.hidden_state = 0")
        case .hiddenOnly: sql.where("m.hidden_state <> 0")
        case .hiddenAllowAutoUnhide: sql.where("m.hidden_state = 1")
        case .hiddenPreventAutoUnhide: sql.where("m.hidden_state = 2")
        case .all: break
        }
        if filter.unreadOnly { sql.where("\(ReceiptRepository.unreadExpression) > 0") }
        switch filter.memberState {
        case .all: break
        case .joinedOnly: sql.where("m.state = 'joined'")
        case .invitedOnly: sql.where("m.state = 'invited'")
        }
    }

    private func applyChannelFilters(_ filter: ChannelFilter, _ sql: inout SQLBuilder) {
        if !filter.showEmpty { sql.where("c.last_message_at IS NOT NULL") }
        let membersOf = "(SELECT count(*) FROM group_channel_members x WHERE x.channel_url = c.channel_url AND x.user_id = ANY"
        if let exact = filter.membersExactlyIn {
            let ids = sql.bind(exact)
            sql.where("c.member_count = cardinality(\(ids)::text[]) AND \(membersOf)(\(ids)::text[])) = cardinality(\(ids)::text[])")
        }
        if let include = filter.membersIncludeIn {
            let ids = sql.bind(include)
            switch filter.membersQueryType {
            case .and: sql.where("\(membersOf)(\(ids)::text[])) = cardinality(\(ids)::text[])")
            case .or: sql.where("\(membersOf)(\(ids)::text[])) > 0")
            }
        }
        if let types = filter.customTypes { sql.where("c.custom_type = ANY(\(sql.bind(types))::text[])") }
        if let prefix = filter.customTypeStartsWith { sql.where("starts_with(c.custom_type, \(sql.bind(prefix)))") }
        if let text = filter.nameContains { sql.where("strpos(lower(c.name), lower(\(sql.bind(text)))) > 0") }
        if let urls = filter.channelURLs { sql.where("c.channel_url = ANY(\(sql.bind(urls))::text[])") }
        apply(filter.superMode, "c.is_super", &sql)
        apply(filter.publicMode, "c.is_public", &sql)
        apply(filter.distinctMode, "c.is_distinct", &sql)
        if let after = filter.createdAfter { sql.where("c.created_at > \(sql.bind(after))") }
        if let before = filter.createdBefore { sql.where("c.created_at < \(sql.bind(before))") }
        applyMapFilters(filter, &sql)
    }

    /// Sendbird's metadata and metacounter filters: one primary-key probe per channel.
    private func applyMapFilters(_ filter: ChannelFilter, _ sql: inout SQLBuilder) {
        if let metadata = filter.metadata {
            var conditions = ["md.key = \(sql.bind(metadata.key))"]
            if let values = metadata.values { conditions.append("md.value = ANY(\(sql.bind(values))::text[])") }
            if let prefix = metadata.prefix { conditions.append("starts_with(md.value, \(sql.bind(prefix)))") }
            sql.where(
                "EXISTS (SELECT 1 FROM group_channel_metadata md WHERE md.channel_url = c.channel_url AND \(conditions.joined(separator: " AND ")))"
            )
        }
        if let counter = filter.metacounter {
            var conditions = ["mc.key = \(sql.bind(counter.key))"]
            if let values = counter.values { conditions.append("mc.value = ANY(\(sql.bind(values.map(String.init)))::bigint[])") }
            let bounds = [(">", counter.greaterThan), (">=", counter.atLeast), ("<", counter.lessThan), ("<=", counter.atMost)]
            for case (let comparison, let bound?) in bounds { conditions.append("mc.value \(comparison) \(sql.bind(bound))") }
            sql.where(
                """
                EXISTS (SELECT 1 FROM group_channel_metacounters mc WHERE mc.channel_url = c.channel_url
                    AND \(conditions.joined(separator: " AND ")))
                """)
        }
    }

    private func apply(_ mode: TriStateMode, _ column: String, _ sql: inout SQLBuilder) {
        switch mode {
        case .all: break
        case .only: sql.where(column)
        case .excluded: sql.where("NOT \(column)")
        }
    }
}
