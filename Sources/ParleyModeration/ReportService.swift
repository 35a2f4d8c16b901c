import ParleyCore
import ParleyStore

/// Reports (API.md §7.4): any user reports a message, a user or a channel they can see; the admin
/// works through the review queue. A report keeps what it was about (the message as its reporter
/// read it), whatever happens to it later.
public struct ReportService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let channels: [ChannelKind: any ModeratedChannels]
    let reportsPerHour: Int

    /// A repeat of a report within this window returns the first one.
    public static let foldingWindowMillis: Int64 = 24 * 3600 * 1000
    static let rateWindowMillis: Int64 = 3600 * 1000

    public init(
        store: Store, clock: Clock, pageTokens: PageTokenCodec, channels: [ChannelKind: any ModeratedChannels], reportsPerHour: Int
    ) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.channels = channels
        self.reportsPerHour = reportsPerHour
    }

    /// What a report request says beyond its target.
    public struct Filing: Sendable {
        public let category: ReportCategory
        /// The reporter: the session user, or whom the admin names.
        public let reportingUserID: String?
        public let description: String

        public init(category: ReportCategory, reportingUserID: String?, description: String) {
            self.category = category
            self.reportingUserID = reportingUserID
            self.description = description
        }
    }

    /// Reports a message; `offendingUserID`, when given, must be its sender. `created` is false
    /// when an earlier report of the same reporter was returned.
    public func reportMessage(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, offendingUserID: String?, _ filing: Filing
    ) async throws -> (report: Report, created: Bool) {
        let channel = try self.channel(kind)
        let now = clock.nowMillis
        return try await file(caller, filing, .message(kind, channelURL, messageID)) { reporterID, repositories in
            let message = try channel.reportedMessage(channelURL, messageID, reporterID: reporterID, now: now, repositories)
            if let offendingUserID, offendingUserID != message.sender?.userID {
                throw ParleyError.invalidValue("offending_user_id", "must be the message's sender")
            }
            return NewReport(
                type: .message, category: filing.category, reportingUserID: reporterID, offendingUserID: message.sender?.userID,
                channel: try channel.reportedChannel(channelURL, reporterID: reporterID, repositories), message: message,
                description: filing.description)
        }
    }

    /// Reports a user, optionally in the context of a channel the reporter can see.
    public func reportUser(
        _ caller: Caller, _ offendingUserID: String, in context: (kind: ChannelKind, channelURL: String)?, _ filing: Filing
    ) async throws -> (report: Report, created: Bool) {
        let channel = try context.map { try self.channel($0.kind) }
        return try await file(caller, filing, .user(offendingUserID)) { reporterID, repositories in
            guard try !repositories.users.basicUsers([offendingUserID]).isEmpty else {
                throw ParleyError.notFound("User \"\(offendingUserID)\" not found.")
            }
            guard offendingUserID != reporterID else {
                throw ParleyError.invalidValue("offending_user_id", "a user cannot report themself")
            }
            let reported = try context.map { try channel!.reportedChannel($0.channelURL, reporterID: reporterID, repositories) }
            return NewReport(
                type: .user, category: filing.category, reportingUserID: reporterID, offendingUserID: offendingUserID, channel: reported,
                message: nil, description: filing.description)
        }
    }

    public func reportChannel(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ filing: Filing) async throws -> (
        report: Report, created: Bool
    ) {
        let channel = try self.channel(kind)
        return try await file(caller, filing, .channel(kind, channelURL)) { reporterID, repositories in
            NewReport(
                type: .channel, category: filing.category, reportingUserID: reporterID, offendingUserID: nil,
                channel: try channel.reportedChannel(channelURL, reporterID: reporterID, repositories), message: nil,
                description: filing.description)
        }
    }

    /// Files the report `make` describes, unless the reporter reported `target` within the
    /// folding window (that report is returned, even if the target is gone since); at most
    /// `reportsPerHour` a reporter (429 beyond).
    private func file(
        _ caller: Caller, _ filing: Filing, _ target: ReportTarget, _ make: @escaping @Sendable (String, Repositories) throws -> NewReport
    ) async throws -> (report: Report, created: Bool) {
        guard let reporterID = filing.reportingUserID ?? caller.userID else { throw ParleyError.missing("reporting_user_id") }
        try caller.requireActingAs(reporterID)
        let now = clock.nowMillis
        let limit = reportsPerHour
        return try await store.transaction { repositories in
            guard try !repositories.users.basicUsers([reporterID]).isEmpty else {
                throw ParleyError.unknownReference("User \"\(reporterID)\" not found.")
            }
            try repositories.reports.lockReporter(reporterID)
            if let earlier = try repositories.reports.earlier(reporterID, target, since: now - Self.foldingWindowMillis) {
                return (earlier, false)
            }
            let new = try make(reporterID, repositories)
            if limit > 0 {
                let filed = try repositories.reports.filed(by: reporterID, since: now - Self.rateWindowMillis + 1)
                if filed.count >= limit {
                    let freeAt = (filed.oldest ?? now) + Self.rateWindowMillis
                    throw ParleyError.rateLimited(retryAfter: Int(max(1, (freeAt - now + 999) / 1000)))
                }
            }
            let report = try repositories.reports.insert(new, target: target, now: now)
            repositories.events.append(
                .webhookOnly(
                    .reportFiled, channelURL: report.channel?.channelURL, channelKind: report.channel?.kind ?? .group,
                    payload: .report(report)))
            return (report, true)
        }
    }

    /// A page of reports, newest first (the admin).
    public func list(_ caller: Caller, _ filter: ReportFilter, limit: Int, pageToken: String?) async throws -> Page<Report> {
        try caller.requireAdmin()
        let scope = "reports|\(filter.scope)"
        let before = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { $0.first.flatMap { Int64($0) } }
        let rows = try await store.read { try $0.reports.list(filter, beforeID: before, limit: limit + 1) }
        let page = rows.prefix(limit)
        return Page(
            items: Array(page), positions: page.map { [String($0.reportID)] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    /// The review queue: the admin sets a report's status; resolving or dismissing is audited.
    public func review(_ caller: Caller, _ reportID: Int64, status: ReportStatus, resolution: String?) async throws -> Report {
        try caller.requireAdmin()
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            guard let report = try repositories.reports.review(reportID, status: status, resolution: resolution, by: "admin", now: now)
            else {
                throw ParleyError.notFound("Report \(reportID) not found.")
            }
            var details = ["report_id": String(reportID), "status": status.rawValue]
            if let resolution { details["resolution"] = resolution }
            try repositories.auditLogs.append(
                NewAuditEntry(
                    .reportResolved, actorID: nil, targetUserID: report.offendingUser?.userID, channelKind: report.channel?.kind,
                    channelURL: report.channel?.channelURL, messageID: report.reportedMessage?.messageID, details: details))
            return report
        }
    }

    private func channel(_ kind: ChannelKind) throws -> any ModeratedChannels {
        guard let channel = channels[kind] else { throw ParleyError.routeNotFound }
        return channel
    }
}
