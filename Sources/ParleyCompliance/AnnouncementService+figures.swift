import ParleyCore
import ParleyStore

/// The open figures and statistics of announcements (API.md §14.4). Opens are read from read
/// positions: each asks first to record the opens that positions show now (`recordOpens`).
extension AnnouncementService {
    /// Opens per hour after sending, of one announcement.
    public func opens(_ caller: Caller, _ uniqueID: String) async throws -> AnnouncementOpens {
        try caller.requireAdmin()
        return try await store.transaction { repositories in
            let announcement = try Self.existing(uniqueID, repositories)
            try repositories.announcements.recordOpens([uniqueID])
            return AnnouncementOpens(
                openCounts: try repositories.announcements.opensByHour([uniqueID], hours: Self.openHours),
                sent: announcement.progress.sentUserCount)
        }
    }

    /// Opens per hour after sending, over a group's announcements (404 for a group with none).
    public func opens(_ caller: Caller, group: String) async throws -> AnnouncementOpens {
        try caller.requireAdmin()
        return try await store.transaction { repositories in
            let ids = try repositories.announcements.ids(inGroup: group)
            guard !ids.isEmpty else { throw ParleyError.notFound("Announcement group \"\(group)\" not found.") }
            try repositories.announcements.recordOpens(ids)
            let sent = try ids.compactMap { try repositories.announcements.find($0) }.reduce(0) { $0 + $1.progress.sentUserCount }
            return AnnouncementOpens(openCounts: try repositories.announcements.opensByHour(ids, hours: Self.openHours), sent: sent)
        }
    }

    /// Who was sent it in which channel, and whether they opened it, in `(channel_url, user_id)` order.
    public func recipients(
        _ caller: Caller, _ uniqueID: String, userIDs: [String]?, channelURLs: [String]?, hasOpened: Bool?, limit: Int, pageToken: String?
    ) async throws -> Page<AnnouncementRecipient> {
        try caller.requireAdmin()
        let scope =
            "announcement-recipients|\(uniqueID)|\((userIDs ?? []).joined(separator: ","))|\((channelURLs ?? []).joined(separator: ","))|\(hasOpened.map(String.init) ?? "")"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        let rows = try await store.transaction { repositories in
            _ = try Self.existing(uniqueID, repositories)
            try repositories.announcements.recordOpens([uniqueID])
            return try repositories.announcements.recipients(
                uniqueID, userIDs: userIDs, channelURLs: channelURLs, hasOpened: hasOpened, after: after, limit: limit + 1)
        }
        let items = Array(rows.prefix(limit))
        return Page(
            items: items, positions: items.map { [$0.channelURL, $0.userID] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    public enum Period: String, Sendable, CaseIterable {
        case daily, weekly, monthly
    }

    /// Per day, week (Monday to Sunday) or month of `scheduled_at` (UTC), from `first` through
    /// `last`: the announcements by outcome, whom they targeted and reached, and the opens.
    public func statistics(_ caller: Caller, _ period: Period, from first: CivilDate, through last: CivilDate, group: String?)
        async throws -> [AnnouncementPeriod]
    {
        try caller.requireAdmin()
        let (from, through) = period == .weekly ? (first.weekStart, CivilDate(epochDay: last.weekStart.epochDay + 6)) : (first, last)
        guard from <= through else { throw ParleyError.invalidValue("end_date", "the end is before the start") }
        guard through.epochDay - from.epochDay < 3_660 else { throw ParleyError.invalidValue("end_date", "at most ten years") }
        let periods = CivilDate.periods(from: from, through: through) { date in
            switch period {
            case .daily: date.text
            case .weekly: "\(date.weekStart.text)~\(CivilDate(epochDay: date.weekStart.epochDay + 6).text)"
            case .monthly: date.monthText
            }
        }
        let (announcements, opens) = try await store.transaction { repositories in
            let announcements = try repositories.announcements.scheduled(
                from: from.epochDay * 86_400_000, to: (through.epochDay + 1) * 86_400_000, group: group)
            let ids = announcements.map(\.uniqueID)
            try repositories.announcements.recordOpens(ids)
            return (announcements, try repositories.announcements.openCounts(ids))
        }
        var results = periods.map { AnnouncementPeriod(dateRange: $0.label) }
        for announcement in announcements {
            let day = announcement.scheduledAt / 86_400_000
            guard let index = periods.firstIndex(where: { $0.days.contains(day) }) else { continue }
            results[index].total += 1
            if announcement.status == .completed { results[index].completed += 1 }
            if announcement.status == .canceled { results[index].canceled += 1 }
            if announcement.status == .stopped { results[index].stopped += 1 }
            results[index].targetChannels += announcement.progress.targetChannelCount
            results[index].targetUsers += announcement.progress.targetUserCount
            results[index].sentChannels += announcement.progress.sentChannelCount
            results[index].sentUsers += announcement.progress.sentUserCount
            results[index].opened += opens[announcement.uniqueID] ?? 0
        }
        return results
    }

    /// The groups that have announcements, in order.
    public func groups(_ caller: Caller, limit: Int, pageToken: String?) async throws -> Page<String> {
        try caller.requireAdmin()
        let after = try pageToken.map { try pageTokens.decode($0, scope: "announcement-groups") }.flatMap(\.first)
        let groups = try await store.read { try $0.announcements.groups(after: after, limit: limit + 1) }
        let items = Array(groups.prefix(limit))
        return Page(
            items: items, positions: items.map { [$0] }, more: groups.count > limit, tokens: pageTokens, scope: "announcement-groups")
    }
}
