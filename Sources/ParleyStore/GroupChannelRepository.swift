import ParleyCore
import Postgres

/// What the rules need of a channel's row, of either kind (an open channel is public, not
/// distinct or super, with no access code; its `memberCount` is its participant count).
public struct ChannelRecord: Sendable {
    public var kind: ChannelKind = .group
    public let channelURL: String
    public let isDistinct: Bool
    public let isPublic: Bool
    public let isSuper: Bool
    public let isEphemeral: Bool
    public let accessCodeHash: String?
    public let freeze: Bool
    public let memberCount: Int
    /// Which message filters apply (API.md §14.7).
    public var customType = ""
}

extension ChannelRecord {
    public init(open record: OpenChannelRecord) {
        self.init(
            kind: .open, channelURL: record.channelURL, isDistinct: false, isPublic: true, isSuper: false,
            isEphemeral: record.isEphemeral, accessCodeHash: nil, freeze: record.freeze, memberCount: record.participantCount,
            customType: record.customType
        )
    }
}

/// What `insert` stores for a new channel.
public struct GroupChannelRow: Sendable {
    public var channelURL: String
    public var name: String
    public var coverURL: String
    public var customType: String
    public var data: String
    public var isDistinct: Bool
    public var isPublic: Bool
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var accessCodeHash: String?
    public var createdAt: Int64
    public var createdBy: String?
    /// Sorted member ids joined by newlines, for distinct channels; hashed by the database.
    public var distinctMembers: String?

    public init(
        channelURL: String, name: String, coverURL: String, customType: String, data: String, isDistinct: Bool,
        isPublic: Bool, isSuper: Bool, isEphemeral: Bool, accessCodeHash: String?, createdAt: Int64,
        createdBy: String?, distinctMembers: String?
    ) {
        self.channelURL = channelURL
        self.name = name
        self.coverURL = coverURL
        self.customType = customType
        self.data = data
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.accessCodeHash = accessCodeHash
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.distinctMembers = distinctMembers
    }
}

/// SQL for `group_channels`.
public struct GroupChannelRepository {
    let connection: PostgresConnection

    /// Inserts the channel. Returns the url of an existing distinct channel with the same member
    /// set instead, when there is one (the unique distinct_key decides, also under races);
    /// 409/400202 when the url is taken.
    public func insert(_ row: GroupChannelRow) throws -> (created: Bool, channelURL: String) {
        do {
            let inserted = try connection.query(
                """
                INSERT INTO group_channels (channel_url, name, cover_url, custom_type, data, is_distinct, is_public, is_super,
                    is_ephemeral, access_code_hash, created_at, created_by, distinct_key, activity_at, name_sort_key)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
                    CASE WHEN $13::text IS NULL THEN NULL ELSE encode(sha256(convert_to($13::text, 'UTF8')), 'hex') END,
                    $11, lower($2))
                ON CONFLICT (distinct_key) DO NOTHING
                """,
                [
                    row.channelURL, row.name, row.coverURL, row.customType, row.data, row.isDistinct, row.isPublic, row.isSuper,
                    row.isEphemeral, row.accessCodeHash, row.createdAt, row.createdBy, row.distinctMembers
                ]
            )
            if inserted.affectedRows == 1 { return (true, row.channelURL) }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ParleyError.alreadyExists("Channel \"\(row.channelURL)\" already exists.")
        }
        let existing = try connection.query(
            "SELECT channel_url FROM group_channels WHERE distinct_key = encode(sha256(convert_to($1::text, 'UTF8')), 'hex')",
            [row.distinctMembers]
        )
        guard let url: String = try existing.first?.decode("channel_url") else {
            throw PostgresError(kind: .server, message: "distinct channel vanished between conflict and read")
        }
        return (false, url)
    }

    /// The channel's row, locked until the transaction ends when `forUpdate`.
    ///
    /// Rows are locked in one order across the project (see `lock`): channels, then their
    /// member rows, then users. `FOR NO KEY UPDATE` is what the send's own UPDATE takes, and it
    /// leaves foreign-key checks of concurrent inserts (messages, members) unblocked.
    public func find(_ channelURL: String, forUpdate: Bool = false) throws -> ChannelRecord? {
        try connection.run(Self.find(channelURL, forUpdate: forUpdate))
    }

    static func find(_ channelURL: String, forUpdate: Bool) -> Query<ChannelRecord?> {
        let lock = forUpdate ? " FOR NO KEY UPDATE" : ""
        return Query(
            "SELECT channel_url, is_distinct, is_public, is_super, is_ephemeral, access_code_hash, is_frozen, member_count, custom_type FROM group_channels WHERE channel_url = $1\(lock)",
            [channelURL]
        ) { rows in
            try rows.first.map { row in
                ChannelRecord(
                    channelURL: try row.decode("channel_url"), isDistinct: try row.decode("is_distinct"),
                    isPublic: try row.decode("is_public"), isSuper: try row.decode("is_super"),
                    isEphemeral: try row.decode("is_ephemeral"), accessCodeHash: try row.decodeIfPresent("access_code_hash"),
                    freeze: try row.decode("is_frozen"),
                    memberCount: try row.decode("member_count"), customType: try row.decode("custom_type")
                )
            }
        }
    }

    /// The channel, locked for a send, and the sender's membership (see
    /// `GroupChannelMemberRepository.sender`), in one round trip: the member is read once the
    /// lock is held, so a ban that committed meanwhile is seen.
    public func findForSend(_ channelURL: String, senderID: String?, now: Int64) throws -> (
        ChannelRecord?, GroupChannelMemberRepository.Sender?
    ) {
        guard let senderID else { return (try find(channelURL, forUpdate: true), nil) }
        return try connection.run(
            Self.find(channelURL, forUpdate: true), GroupChannelMemberRepository.sender(channelURL, senderID, now: now))
    }

    public func update(_ channelURL: String, _ update: GroupChannelUpdate, accessCodeHash: String??) throws {
        let accessCodeChange: Bool = accessCodeHash != nil
        try connection.query(
            """
            UPDATE group_channels SET name = COALESCE($2, name), cover_url = COALESCE($3, cover_url),
                custom_type = COALESCE($4, custom_type), data = COALESCE($5, data), is_public = COALESCE($6, is_public),
                is_distinct = COALESCE($7, is_distinct),
                distinct_key = CASE WHEN COALESCE($7, is_distinct) THEN distinct_key ELSE NULL END,
                access_code_hash = CASE WHEN $8 THEN $9 ELSE access_code_hash END,
                name_sort_key = lower(COALESCE($2, name))
            WHERE channel_url = $1
            """,
            [
                channelURL, update.name, update.coverURL, update.customType, update.data, update.isPublic, update.isDistinct,
                accessCodeChange, accessCodeHash ?? nil
            ]
        )
        if update.name != nil {
            try connection.query(
                "UPDATE group_channel_members SET name_sort_key = lower($2) WHERE channel_url = $1", [channelURL, update.name]
            )
        }
    }

    /// Sets the channel's own retention (API.md §14.3); nil fields stay.
    public func setMessagePolicy(_ channelURL: String, _ policy: MessagePolicy) throws {
        guard !policy.isEmpty else { return }
        try connection.query(
            """
            UPDATE group_channels SET message_retention_hours = COALESCE($2, message_retention_hours),
                message_survival_seconds = COALESCE($3, message_survival_seconds)
            WHERE channel_url = $1
            """,
            [channelURL, policy.retentionHours.map(Int64.init), policy.survivalSeconds.map(Int64.init)])
    }

    /// Locks these channels' rows in channel_url order, before any of their member rows.
    ///
    /// The one lock order of the project: channel rows (several in channel_url order), then
    /// member rows, then user rows. A send locks its channel and then the members; leaving all
    /// channels, deactivating or deleting a user must lock the channels first too, or the two
    /// deadlock.
    public func lock(_ channelURLs: [String]) throws {
        guard !channelURLs.isEmpty else { return }
        try connection.query(
            "SELECT channel_url FROM group_channels WHERE channel_url = ANY($1::text[]) ORDER BY channel_url FOR NO KEY UPDATE",
            [channelURLs]
        )
    }

    /// Stores the access code in a new form (the code itself is unchanged).
    public func replaceAccessCode(_ channelURL: String, _ stored: String) throws {
        try connection.query("UPDATE group_channels SET access_code_hash = $2 WHERE channel_url = $1", [channelURL, stored])
    }

    public func delete(_ channelURL: String) throws -> Bool {
        try connection.query("DELETE FROM group_channels WHERE channel_url = $1", [channelURL]).affectedRows == 1
    }

    public func setFreeze(_ channelURL: String, _ freeze: Bool) throws {
        try connection.query("UPDATE group_channels SET is_frozen = $2 WHERE channel_url = $1", [channelURL, freeze])
    }

    /// A change of members ends distinctness: the channel is no longer "the" channel of its old set.
    public func endDistinct(_ channelURLs: [String]) throws {
        try connection.query(
            "UPDATE group_channels SET is_distinct = false, distinct_key = NULL WHERE channel_url = ANY($1::text[]) AND is_distinct",
            [channelURLs]
        )
    }

    /// Recounts members and joined members from the member rows.
    public func refreshCounts(_ channelURLs: [String]) throws {
        try connection.query(
            """
            UPDATE group_channels c SET member_count = counts.total, joined_member_count = counts.joined
            FROM (SELECT u.url, count(m.user_id) AS total, count(m.user_id) FILTER (WHERE m.state = 'joined') AS joined
                  FROM unnest($1::text[]) AS u(url) LEFT JOIN group_channel_members m ON m.channel_url = u.url
                  GROUP BY u.url) AS counts
            WHERE c.channel_url = counts.url
            """,
            [channelURLs]
        )
    }
}
