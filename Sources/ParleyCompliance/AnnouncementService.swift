import Foundation
import ParleyCore
import ParleyStore

/// A change to an announcement (`PUT /v3/announcements/{unique_id}`): an action, or new values
/// for a scheduled one (nil fields stay).
public struct AnnouncementChange: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case pause, resume, cancel
    }

    public var action: Action?
    public var group: String?
    public var senderID: String?
    public var content: String?
    public var customType: String?
    public var data: String?
    public var createChannel: Bool?
    public var channelOptions: Announcement.ChannelOptions?
    public var enablePush: Bool?
    public var scheduledAt: Int64?
    public var endAt: Int64?
    public var ceaseAt: String?
    public var resumeAt: String?

    public init() {}
}

/// Open figures of an announcement or a group: how many opened in each of the first 24 hours
/// after being sent (later opens count in the last hour), among `sent` recipients.
public struct AnnouncementOpens: Sendable {
    public let openCounts: [Int]
    public let sent: Int
}

/// One period of `GET /v3/announcement_stats/daily|weekly|monthly`.
public struct AnnouncementPeriod: Sendable {
    public let dateRange: String
    public var total = 0, completed = 0, canceled = 0, stopped = 0
    public var targetChannels = 0, targetUsers = 0, sentChannels = 0, sentUsers = 0, opened = 0
}

/// Announcements (API.md §14.4, Sendbird's `/v3/announcements`, `/v3/announcement_group`, open
/// rates and statistics): the admin's only. Scheduling one writes it with its job
/// (`AnnouncementJob`) in one transaction; the job waits in PostgreSQL until `scheduled_at`,
/// for any instance to run.
public struct AnnouncementService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
    }

    public static let maxTargets = 10_000
    public static let openHours = 24

    public func schedule(_ caller: Caller, _ new: Announcement) async throws -> Announcement {
        try caller.requireAdmin()
        let now = clock.nowMillis
        var announcement = new
        announcement.createdAt = now
        announcement.status = .scheduled
        // Absent (0) or past: now.
        announcement.scheduledAt = max(announcement.scheduledAt, now)
        if announcement.uniqueID.isEmpty { announcement.uniqueID = UUID().uuidString.lowercased() }
        try Self.check(announcement, now: now)
        let scheduled = announcement
        try await store.transaction { repositories in
            guard try repositories.users.find(scheduled.senderID) != nil else {
                throw ParleyError.unknownReference("User \"\(scheduled.senderID)\" not found.")
            }
            try repositories.announcements.insert(scheduled)
            try Self.enqueue(scheduled, now: now, repositories)
        }
        return scheduled
    }

    static func jobPrefix(_ uniqueID: String) -> String { "announcement-\(uniqueID)-" }

    /// The job that sends it, due at `scheduled_at` (or at once).
    private static func enqueue(_ announcement: Announcement, now: Int64, _ repositories: Repositories) throws {
        let params = String(decoding: try JSONEncoder().encode(AnnouncementJob.Params(uniqueID: announcement.uniqueID)), as: UTF8.self)
        _ = try repositories.jobs.insert(
            jobID: jobPrefix(announcement.uniqueID) + String(now), kind: AnnouncementJob.jobKind, params: params, now: now,
            notBefore: max(announcement.scheduledAt, now))
    }

    private static func check(_ announcement: Announcement, now: Int64) throws {
        guard !announcement.targetList.isEmpty || announcement.target == .senderAllChannels else {
            throw ParleyError.missing("target_list")
        }
        guard announcement.targetList.count <= maxTargets else {
            throw ParleyError.invalidValue("target_list", "at most \(maxTargets) targets")
        }
        guard announcement.endAt == 0 || announcement.endAt > max(announcement.scheduledAt, now) else {
            throw ParleyError.invalidValue("end_at", "must be after scheduled_at")
        }
        guard (announcement.ceaseAt == nil) == (announcement.resumeAt == nil) else {
            throw ParleyError.invalidValue(announcement.ceaseAt == nil ? "cease_at" : "resume_at", "cease_at and resume_at go together")
        }
        for (field, text) in [("cease_at", announcement.ceaseAt), ("resume_at", announcement.resumeAt)] {
            if let text, DailyPause.minutes(text) == nil { throw ParleyError.invalidValue(field, "must be a time of day as HHMM (UTC)") }
        }
    }

    public func get(_ caller: Caller, _ uniqueID: String) async throws -> Announcement {
        try caller.requireAdmin()
        return try await store.transaction { repositories in
            var announcement = try Self.existing(uniqueID, repositories)
            try repositories.announcements.recordOpens([uniqueID])
            announcement.openCount = try repositories.announcements.openCounts([uniqueID])[uniqueID] ?? 0
            return announcement
        }
    }

    /// Newest first (by creation, or by `scheduled_at`), filtered by status and group.
    public func list(
        _ caller: Caller, status: Announcement.Status?, group: String?, byScheduledAt: Bool, limit: Int, pageToken: String?
    ) async throws -> Page<Announcement> {
        try caller.requireAdmin()
        let scope = "announcements|\(status?.rawValue ?? "")|\(group ?? "")|\(byScheduledAt)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap { position -> (Int64, String)? in
            guard position.count == 2, let time = Int64(position[0]) else { return nil }
            return (time, position[1])
        }
        let page = try await store.transaction { repositories in
            var items = try repositories.announcements.list(
                status: status, group: group, byScheduledAt: byScheduledAt, after: after, limit: limit + 1)
            let ids = items.map(\.uniqueID)
            try repositories.announcements.recordOpens(ids)
            let opens = try repositories.announcements.openCounts(ids)
            for index in items.indices { items[index].openCount = opens[items[index].uniqueID] ?? 0 }
            return items
        }
        let items = Array(page.prefix(limit))
        return Page(
            items: items, positions: items.map { [String(byScheduledAt ? $0.scheduledAt : $0.createdAt), $0.uniqueID] },
            more: page.count > limit, tokens: pageTokens, scope: scope)
    }

    /// Pauses, resumes or cancels it, or changes a scheduled one (400 once it has started).
    public func update(_ caller: Caller, _ uniqueID: String, _ change: AnnouncementChange) async throws -> Announcement {
        try caller.requireAdmin()
        let now = clock.nowMillis
        try await store.transaction { repositories in
            var announcement = try Self.existing(uniqueID, repositories, forUpdate: true)
            if let action = change.action {
                try Self.apply(action, to: &announcement, now: now, repositories)
                return
            }
            guard announcement.status == .scheduled else {
                throw ParleyError.invalidValue(
                    "unique_id", "only a scheduled announcement can be changed; it is \(announcement.status.rawValue)")
            }
            Self.apply(change, to: &announcement)
            announcement.scheduledAt = max(announcement.scheduledAt, now)
            try Self.check(announcement, now: now)
            if let senderID = change.senderID, try repositories.users.find(senderID) == nil {
                throw ParleyError.unknownReference("User \"\(senderID)\" not found.")
            }
            try repositories.announcements.update(announcement)
            // A new time: the waiting job is replaced by one due then.
            if change.scheduledAt != nil {
                try repositories.jobs.cancelPending(kind: AnnouncementJob.jobKind, idPrefix: Self.jobPrefix(uniqueID))
                try Self.enqueue(announcement, now: now, repositories)
            }
        }
        return try await get(caller, uniqueID)
    }

    private static func apply(_ change: AnnouncementChange, to announcement: inout Announcement) {
        if let group = change.group { announcement.group = group }
        if let senderID = change.senderID { announcement.senderID = senderID }
        if let content = change.content { announcement.content = content }
        if let customType = change.customType { announcement.customType = customType }
        if let data = change.data { announcement.data = data }
        if let createChannel = change.createChannel { announcement.createChannel = createChannel }
        if let options = change.channelOptions { announcement.channelOptions = options }
        if let enablePush = change.enablePush { announcement.enablePush = enablePush }
        if let scheduledAt = change.scheduledAt { announcement.scheduledAt = scheduledAt }
        if let endAt = change.endAt { announcement.endAt = endAt }
        if let ceaseAt = change.ceaseAt { announcement.ceaseAt = ceaseAt.isEmpty ? nil : ceaseAt }
        if let resumeAt = change.resumeAt { announcement.resumeAt = resumeAt.isEmpty ? nil : resumeAt }
    }

    /// Pause (scheduled or running: the job stops after its batch), resume (paused: a new job goes
    /// on where it stopped), cancel (anything not over).
    private static func apply(
        _ action: AnnouncementChange.Action, to announcement: inout Announcement, now: Int64, _ repositories: Repositories
    )
        throws
    {
        let status = announcement.status
        switch action {
        case .pause:
            guard status == .scheduled || status == .running else { throw notAllowed(action, status) }
            try repositories.announcements.setStatus(announcement.uniqueID, .paused, completedAt: nil)
        case .resume:
            guard status == .paused else { throw notAllowed(action, status) }
            // Back to scheduled: the new job marks it running (and counts its reach if it never ran).
            try repositories.announcements.setStatus(announcement.uniqueID, .scheduled, completedAt: nil)
            // A job still finishing the batch of the pause goes on by itself: never two at once.
            if try !repositories.jobs.hasActive(kind: AnnouncementJob.jobKind, idPrefix: jobPrefix(announcement.uniqueID)) {
                try enqueue(announcement, now: now, repositories)
            }
        case .cancel:
            guard !status.isFinal else { throw notAllowed(action, status) }
            try repositories.announcements.setStatus(announcement.uniqueID, .canceled, completedAt: now)
        }
    }

    private static func notAllowed(_ action: AnnouncementChange.Action, _ status: Announcement.Status) -> ParleyError {
        ParleyError.invalidValue(
            "action",
            "a \(status.rawValue) announcement cannot be \(action == .pause ? "paused" : action == .resume ? "resumed" : "canceled")")
    }

    static func existing(_ uniqueID: String, _ repositories: Repositories, forUpdate: Bool = false) throws -> Announcement {
        guard let announcement = try repositories.announcements.find(uniqueID, forUpdate: forUpdate) else {
            throw ParleyError.notFound("Announcement \"\(uniqueID)\" not found.")
        }
        return announcement
    }
}
