import Foundation
import ParleyCore
import Postgres

/// SQL of `announcements` and `announcement_recipients` (migration 0043, API.md §14.4).
public struct AnnouncementRepository {
    let connection: PostgresConnection

    private static let columns = """
        unique_id, announcement_group, message_type, sender_id, content, custom_type, data, target_at, target_list,
        target_channel_type, create_channel, channel_options::text AS channel_options, enable_push, scheduled_at, end_at, cease_at,
        resume_at, status, next_target, next_channel, target_user_count, target_channel_count, sent_user_count, sent_channel_count,
        created_at, completed_at
        """

    private static func announcement(_ row: PostgresRow) throws -> Announcement {
        let options = try JSONDecoder().decode(
            Announcement.ChannelOptions.self, from: Data(try row.decode("channel_options", as: String.self).utf8))
        var announcement = Announcement(
            uniqueID: try row.decode("unique_id"), group: try row.decode("announcement_group"),
            messageType: MessageType(rawValue: try row.decode("message_type")) ?? .user, senderID: try row.decode("sender_id"),
            content: try row.decode("content"), customType: try row.decode("custom_type"), data: try row.decode("data"),
            target: Announcement.Target(rawValue: try row.decode("target_at")) ?? .channels,
            targetList: try row.decode("target_list", as: [String].self),
            channelType: Announcement.ChannelType(rawValue: try row.decode("target_channel_type")) ?? .all,
            createChannel: try row.decode("create_channel"), channelOptions: options, enablePush: try row.decode("enable_push"),
            scheduledAt: try row.decode("scheduled_at"), endAt: try row.decode("end_at"), ceaseAt: try row.decodeIfPresent("cease_at"),
            resumeAt: try row.decodeIfPresent("resume_at"),
            status: Announcement.Status(rawValue: try row.decode("status")) ?? .scheduled, createdAt: try row.decode("created_at"))
        announcement.completedAt = try row.decodeIfPresent("completed_at")
        announcement.progress.nextTarget = try row.decode("next_target", as: Int.self)
        announcement.progress.nextChannel = try row.decode("next_channel")
        announcement.progress.targetUserCount = try row.decode("target_user_count", as: Int.self)
        announcement.progress.targetChannelCount = try row.decode("target_channel_count", as: Int.self)
        announcement.progress.sentUserCount = try row.decode("sent_user_count", as: Int.self)
        announcement.progress.sentChannelCount = try row.decode("sent_channel_count", as: Int.self)
        return announcement
    }

    /// 409/400202 when the unique id is taken.
    public func insert(_ announcement: Announcement) throws {
        do {
            try connection.query(
                """
                INSERT INTO announcements (unique_id, announcement_group, message_type, sender_id, content, custom_type, data, target_at,
                    target_list, target_channel_type, create_channel, channel_options, enable_push, scheduled_at, end_at, cease_at,
                    resume_at, status, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18, $19)
                """, Self.fields(announcement) + [announcement.createdAt])
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ParleyError.alreadyExists("Announcement \"\(announcement.uniqueID)\" already exists.")
        }
    }

    /// Writes what an update may change (everything but the id, the targets' progress and the creation time).
    public func update(_ announcement: Announcement) throws {
        try connection.query(
            """
            UPDATE announcements SET announcement_group = $2, message_type = $3, sender_id = $4, content = $5, custom_type = $6,
                data = $7, target_at = $8, target_list = $9, target_channel_type = $10, create_channel = $11, channel_options = $12::jsonb,
                enable_push = $13, scheduled_at = $14, end_at = $15, cease_at = $16, resume_at = $17, status = $18, completed_at = $19
            WHERE unique_id = $1
            """, Self.fields(announcement) + [announcement.completedAt])
    }

    private static func fields(_ announcement: Announcement) -> [any PostgresBindable] {
        let options = String(decoding: (try? JSONEncoder().encode(announcement.channelOptions)) ?? Data("{}".utf8), as: UTF8.self)
        return [
            announcement.uniqueID, announcement.group, announcement.messageType.rawValue, announcement.senderID, announcement.content,
            announcement.customType, announcement.data, announcement.target.rawValue, announcement.targetList,
            announcement.channelType.rawValue, announcement.createChannel, options, announcement.enablePush, announcement.scheduledAt,
            announcement.endAt, announcement.ceaseAt, announcement.resumeAt, announcement.status.rawValue
        ]
    }

    public func find(_ uniqueID: String, forUpdate: Bool = false) throws -> Announcement? {
        try connection.query(
            "SELECT \(Self.columns) FROM announcements WHERE unique_id = $1\(forUpdate ? " FOR UPDATE" : "")", [uniqueID]
        ).first.map(Self.announcement)
    }

    /// Newest first by `scheduled_at` or `created_at`, after the previous page's last `(time, id)`.
    public func list(
        status: Announcement.Status?, group: String?, byScheduledAt: Bool, after: (time: Int64, uniqueID: String)?, limit: Int
    ) throws -> [Announcement] {
        let order = byScheduledAt ? "scheduled_at" : "created_at"
        return try connection.query(
            """
            SELECT \(Self.columns) FROM announcements
            WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR announcement_group = $2)
                AND ($3::bigint IS NULL OR (\(order), unique_id) < ($3, $4))
            ORDER BY \(order) DESC, unique_id DESC LIMIT $5
            """, [status?.rawValue, group, after?.time, after?.uniqueID ?? "", Int64(limit)]
        ).map(Self.announcement)
    }

    /// Announcements scheduled in `[from, to)` (for the statistics).
    public func scheduled(from: Int64, to: Int64, group: String?) throws -> [Announcement] {
        try connection.query(
            """
            SELECT \(Self.columns) FROM announcements
            WHERE scheduled_at >= $1 AND scheduled_at < $2 AND ($3::text IS NULL OR announcement_group = $3)
            """, [from, to, group]
        ).map(Self.announcement)
    }

    /// The ids of a group's announcements.
    public func ids(inGroup group: String) throws -> [String] {
        try connection.query("SELECT unique_id FROM announcements WHERE announcement_group = $1", [group]).map {
            try $0.decode("unique_id")
        }
    }

    /// The groups that have announcements, in order, after `after`.
    public func groups(after: String?, limit: Int) throws -> [String] {
        try connection.query(
            """
            SELECT DISTINCT announcement_group FROM announcements WHERE announcement_group <> '' AND ($1::text IS NULL OR announcement_group > $1)
            ORDER BY announcement_group LIMIT $2
            """, [after, Int64(limit)]
        ).map { try $0.decode("announcement_group") }
    }

    public func setStatus(_ uniqueID: String, _ status: Announcement.Status, completedAt: Int64?) throws {
        try connection.query(
            "UPDATE announcements SET status = $2, completed_at = $3 WHERE unique_id = $1", [uniqueID, status.rawValue, completedAt])
    }

    public func saveProgress(_ uniqueID: String, _ progress: Announcement.Progress) throws {
        try connection.query(
            """
            UPDATE announcements SET next_target = $2, next_channel = $3, target_user_count = $4, target_channel_count = $5,
                sent_user_count = $6, sent_channel_count = $7
            WHERE unique_id = $1
            """,
            [
                uniqueID, Int64(progress.nextTarget), progress.nextChannel, Int64(progress.targetUserCount),
                Int64(progress.targetChannelCount), Int64(progress.sentUserCount), Int64(progress.sentChannelCount)
            ])
    }

    /// The sender's joined group channels (of `type`) after `afterURL`, in URL order.
    public func senderChannels(_ senderID: String, type: Announcement.ChannelType, after afterURL: String, limit: Int) throws -> [String] {
        try connection.query(
            """
            SELECT m.channel_url FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.user_id = $1 AND m.state = 'joined' AND m.channel_url > $2 AND ($3 = 'all' OR c.is_distinct = ($3 = 'distinct'))
            ORDER BY m.channel_url LIMIT $4
            """, [senderID, afterURL, type.rawValue, Int64(limit)]
        ).map { try $0.decode("channel_url") }
    }

    /// How many channels and members (but the sender) these targets hold now.
    public func reach(channels: [String]?, sender: String, type: Announcement.ChannelType) throws -> (channels: Int, users: Int) {
        let row = try connection.query(
            """
            SELECT count(*) AS channels, COALESCE(sum(c.joined_member_count), 0)::bigint AS members,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM group_channel_members s
                    WHERE s.channel_url = c.channel_url AND s.user_id = $2 AND s.state = 'joined')) AS with_sender
            FROM group_channels c
            WHERE CASE WHEN $1::text[] IS NULL
                THEN c.channel_url IN (SELECT channel_url FROM group_channel_members WHERE user_id = $2 AND state = 'joined')
                    AND ($3 = 'all' OR c.is_distinct = ($3 = 'distinct'))
                ELSE c.channel_url = ANY($1) END
            """, [channels, sender, type.rawValue])[0]
        let (count, members, withSender): (Int64, Int64, Int64) = (
            try row.decode("channels"), try row.decode("members"), try row.decode("with_sender")
        )
        return (Int(count), Int(members - withSender))
    }

    /// The distinct 1-to-1 channel of two users, if they have one.
    public func distinctChannel(of first: String, and second: String) throws -> String? {
        try connection.query(
            "SELECT channel_url FROM group_channels WHERE distinct_key = encode(sha256(convert_to($1::text, 'UTF8')), 'hex')",
            [[first, second].sorted().joined(separator: "\n")]
        ).first.map { try $0.decode("channel_url") }
    }

    /// Records the channel's joined members but the sender as recipients of the message; returns how many are new.
    public func recordRecipients(_ uniqueID: String, channelURL: String, messageID: Int64, sentAt: Int64, senderID: String) throws -> Int {
        try connection.query(
            """
            INSERT INTO announcement_recipients (unique_id, channel_url, user_id, message_id, sent_at)
            SELECT $1, $2, user_id, $3, $4 FROM group_channel_members WHERE channel_url = $2 AND state = 'joined' AND user_id <> $5
            ON CONFLICT DO NOTHING
            """, [uniqueID, channelURL, messageID, sentAt, senderID]
        ).affectedRows
    }

    /// Records the opens that read positions show now and were not yet recorded (the read
    /// position's time is when it was first seen past the message).
    public func recordOpens(_ uniqueIDs: [String]) throws {
        try connection.query(
            """
            UPDATE announcement_recipients r SET opened_at = m.read_ts
            FROM group_channel_members m
            WHERE r.unique_id = ANY($1) AND r.opened_at IS NULL AND m.channel_url = r.channel_url AND m.user_id = r.user_id
                AND m.read_ts >= r.sent_at
            """, [uniqueIDs])
    }

    /// Each announcement's recipients who opened it (after `recordOpens`).
    public func openCounts(_ uniqueIDs: [String]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connection.query(
            """
            SELECT unique_id, count(*) AS opened FROM announcement_recipients WHERE unique_id = ANY($1) AND opened_at IS NOT NULL
            GROUP BY unique_id
            """, [uniqueIDs])
        {
            counts[try row.decode("unique_id")] = Int(try row.decode("opened", as: Int64.self))
        }
        return counts
    }

    /// How many opened in each hour after being sent (the first `hours` hours; later opens count in the last).
    public func opensByHour(_ uniqueIDs: [String], hours: Int) throws -> [Int] {
        var counts = Array(repeating: 0, count: hours)
        for row in try connection.query(
            """
            SELECT LEAST(GREATEST((opened_at - sent_at) / 3600000, 0), $2 - 1) AS hour, count(*) AS opened
            FROM announcement_recipients WHERE unique_id = ANY($1) AND opened_at IS NOT NULL GROUP BY 1
            """, [uniqueIDs, Int64(hours)])
        {
            counts[Int(try row.decode("hour", as: Int64.self))] += Int(try row.decode("opened", as: Int64.self))
        }
        return counts
    }

    /// A page of recipients in `(channel_url, user_id)` order, filtered.
    public func recipients(
        _ uniqueID: String, userIDs: [String]?, channelURLs: [String]?, hasOpened: Bool?, after: (channel: String, user: String)?,
        limit: Int
    ) throws -> [AnnouncementRecipient] {
        try connection.query(
            """
            SELECT channel_url, user_id, sent_at, opened_at FROM announcement_recipients
            WHERE unique_id = $1 AND ($2::text[] IS NULL OR user_id = ANY($2)) AND ($3::text[] IS NULL OR channel_url = ANY($3))
                AND ($4::boolean IS NULL OR (opened_at IS NOT NULL) = $4) AND ($5::text IS NULL OR (channel_url, user_id) > ($5, $6))
            ORDER BY channel_url, user_id LIMIT $7
            """, [uniqueID, userIDs, channelURLs, hasOpened, after?.channel, after?.user ?? "", Int64(limit)]
        ).map { row in
            AnnouncementRecipient(
                userID: try row.decode("user_id"), channelURL: try row.decode("channel_url"), sentAt: try row.decode("sent_at"),
                openedAt: try row.decodeIfPresent("opened_at"))
        }
    }
}
