import ParleyCore
import Postgres

/// SQL for `reports` (migration 0011).
public struct ReportRepository {
    let connection: PostgresConnection

    /// Serialises the reporter's reports until the transaction ends, so that the duplicate check
    /// and the rate limit see every report of theirs that came before, on any instance.
    public func lockReporter(_ reporterID: String) throws {
        try connection.query("SELECT pg_advisory_xact_lock(\(Self.lockSpace), hashtext($1))", [reporterID])
    }

    /// The advisory lock space of reporters ("RPRT").
    static let lockSpace: Int32 = 0x5250_5254

    /// The reporter's report of `targetKey` filed at or after `since`, if any.
    public func earlier(_ reporterID: String, _ target: ReportTarget, since: Int64) throws -> Report? {
        try list(where: "r.reporting_user_id = $1 AND r.target_key = $2 AND r.created_at >= $3", [reporterID, target.key, since], limit: 1)
            .first
    }

    /// How many reports the reporter filed at or after `since`, and when the oldest of them was.
    public func filed(by reporterID: String, since: Int64) throws -> (count: Int, oldest: Int64?) {
        let row = try connection.query(
            "SELECT count(*) AS n, min(created_at) AS oldest FROM reports WHERE reporting_user_id = $1 AND created_at >= $2",
            [reporterID, since]
        )[0]
        return (try row.decode("n"), try row.decodeIfPresent("oldest"))
    }

    public func insert(_ new: NewReport, target: ReportTarget, now: Int64) throws -> Report {
        try select(
            from: """
                INSERT INTO reports (report_type, report_category, reporting_user_id, offending_user_id, channel_type, channel_url,
                    channel_name, channel_custom_type, message_id, reported_message, report_description, target_key, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
                RETURNING *
                """,
            [
                new.type.rawValue, new.category.rawValue, new.reportingUserID, new.offendingUserID, new.channel?.kind.rawValue,
                new.channel?.channelURL, new.channel?.name, new.channel?.customType, new.message?.messageID,
                try new.message.map(JSONColumn.text), new.description, target.key, now
            ]
        )[0]
    }

    public func find(_ reportID: Int64) throws -> Report? {
        try list(where: "r.report_id = $1", [reportID], limit: 1).first
    }

    /// A page, newest first, of the reports before `beforeID`.
    public func list(_ filter: ReportFilter, beforeID: Int64?, limit: Int) throws -> [Report] {
        var sql = SQLBuilder()
        if let status = filter.status { sql.where("r.status = \(sql.bind(status.rawValue))") }
        if let type = filter.type { sql.where("r.report_type = \(sql.bind(type.rawValue))") }
        if let start = filter.startTS { sql.where("r.created_at >= \(sql.bind(start))") }
        if let end = filter.endTS { sql.where("r.created_at < \(sql.bind(end))") }
        if let channel = filter.channel {
            sql.where("r.channel_type = \(sql.bind(channel.kind.rawValue)) AND r.channel_url = \(sql.bind(channel.channelURL))")
        }
        if let messageID = filter.messageID { sql.where("r.message_id = \(sql.bind(messageID))") }
        if let offender = filter.offendingUserID { sql.where("r.offending_user_id = \(sql.bind(offender))") }
        if let beforeID { sql.where("r.report_id < \(sql.bind(beforeID))") }
        return try list(where: sql.condition, sql.parameters, limit: limit)
    }

    /// Sets the status (the review queue); nil when there is no such report.
    public func review(_ reportID: Int64, status: ReportStatus, resolution: String?, by reviewer: String, now: Int64) throws -> Report? {
        try select(
            from: "UPDATE reports SET status = $2, resolution = $3, resolved_by = $4, updated_at = $5 WHERE report_id = $1 RETURNING *",
            [reportID, status.rawValue, resolution, reviewer, now]
        ).first
    }

    private func list(where condition: String, _ parameters: [any PostgresBindable], limit: Int) throws -> [Report] {
        try select(from: "SELECT * FROM reports r WHERE \(condition) ORDER BY r.report_id DESC LIMIT \(limit)", parameters)
    }

    /// The reports the statement `source` yields (a query, or a write `RETURNING *`), newest
    /// first, with their users' profiles.
    private func select(from source: String, _ parameters: [any PostgresBindable]) throws -> [Report] {
        let rows = try connection.query(
            """
            WITH r AS (\(source))
            SELECT r.*, ru.nickname AS reporter_nickname, ru.profile_url AS reporter_profile_url, ru.is_active AS reporter_is_active,
                ou.nickname AS offender_nickname, ou.profile_url AS offender_profile_url, ou.is_active AS offender_is_active
            FROM r
                LEFT JOIN users ru ON ru.user_id = r.reporting_user_id
                LEFT JOIN users ou ON ou.user_id = r.offending_user_id
            ORDER BY r.report_id DESC
            """,
            parameters
        )
        return try rows.map(Self.report)
    }

    private static func report(_ row: PostgresRow) throws -> Report {
        // A user deleted since is shown by id alone.
        func user(_ id: String, _ prefix: String) throws -> BasicUser {
            BasicUser(
                userID: id, nickname: try row.decodeIfPresent("\(prefix)_nickname") ?? "",
                profileURL: try row.decodeIfPresent("\(prefix)_profile_url") ?? "",
                isActive: try row.decodeIfPresent("\(prefix)_is_active") ?? false)
        }
        let channel: ReportedChannel? = try row.decodeIfPresent("channel_url", as: String.self).map { url in
            ReportedChannel(
                kind: ChannelKind(rawValue: try row.decode("channel_type")) ?? .group, channelURL: url,
                name: try row.decodeIfPresent("channel_name") ?? "", customType: try row.decodeIfPresent("channel_custom_type") ?? "")
        }
        return Report(
            reportID: try row.decode("report_id"),
            type: ReportType(rawValue: try row.decode("report_type")) ?? .user,
            category: ReportCategory(rawValue: try row.decode("report_category")) ?? .suspicious,
            reportingUser: try user(try row.decode("reporting_user_id"), "reporter"),
            offendingUser: try row.decodeIfPresent("offending_user_id", as: String.self).map { try user($0, "offender") },
            reportedMessage: try row.decodeIfPresent("reported_message", as: String.self).map { try JSONColumn.value($0) },
            channel: channel,
            description: try row.decode("report_description"),
            status: ReportStatus(rawValue: try row.decode("status")) ?? .open,
            resolution: try row.decodeIfPresent("resolution"),
            resolvedBy: try row.decodeIfPresent("resolved_by"),
            createdAt: try row.decode("created_at"),
            updatedAt: try row.decode("updated_at")
        )
    }
}
