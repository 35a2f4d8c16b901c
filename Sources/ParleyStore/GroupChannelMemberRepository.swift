import ParleyCore
import Postgres

/// A new member row.
public struct NewMember: Sendable {
    public let userID: String
    public let state: MemberState
    public let isOperator: Bool
    public let inviterID: String?
    public let tsMessageOffset: Int64

    public init(userID: String, state: MemberState, isOperator: Bool, inviterID: String?, tsMessageOffset: Int64) {
        self.userID = userID
        self.state = state
        self.isOperator = isOperator
        self.inviterID = inviterID
        self.tsMessageOffset = tsMessageOffset
    }
}

/// SQL for `group_channel_members`.
public struct GroupChannelMemberRepository {
    let connection: PostgresConnection

    /// Adds members that are not members yet; returns the ids actually added.
    @discardableResult
    public func insert(_ channelURL: String, _ members: [NewMember], now: Int64) throws -> [String] {
        guard !members.isEmpty else { return [] }
        let rows = try connection.query(
            """
            INSERT INTO group_channel_members (channel_url, user_id, state, is_operator, invited_at, joined_at, inviter_id,
                ts_message_offset, channel_created_at, activity_at, name_sort_key, read_seq)
            SELECT c.channel_url, n.user_id, n.state, n.is_operator, $7::bigint, CASE WHEN n.state = 'joined' THEN $7::bigint ELSE 0 END,
                NULLIF(n.inviter_id, ''), n.offset_ts, c.created_at, c.activity_at, c.name_sort_key, c.counted_seq
            FROM group_channels c,
                unnest($2::text[], $3::text[], $4::boolean[], $5::text[], $6::bigint[]) AS n(user_id, state, is_operator, inviter_id, offset_ts)
            WHERE c.channel_url = $1
            ON CONFLICT (channel_url, user_id) DO NOTHING
            RETURNING user_id
            """,
            [
                channelURL, members.map(\.userID), members.map(\.state.rawValue), members.map { $0.isOperator ? "t" : "f" },
                members.map { $0.inviterID ?? "" }, members.map { String($0.tsMessageOffset) }, now
            ]
        )
        return try rows.map { try $0.decode("user_id", as: String.self) }
    }

    /// The member's state, or nil when they are not a member.
    public func state(_ channelURL: String, _ userID: String) throws -> (state: MemberState, isOperator: Bool)? {
        try connection.query(
            "SELECT state, is_operator FROM group_channel_members WHERE channel_url = $1 AND user_id = $2", [channelURL, userID]
        ).first.map { row in
            (try row.decode("state", as: MemberState.self), try row.decode("is_operator"))
        }
    }

    /// A member as a message sender: their state, role, profile and the end of a mute in force
    /// at `now` (nil when not muted).
    public typealias Sender = (state: MemberState, isOperator: Bool, user: BasicUser, mutedUntil: Int64?)

    /// A member as a message sender (see `Sender`), in one query.
    public func sender(_ channelURL: String, _ userID: String, now: Int64) throws -> Sender? {
        try connection.run(Self.sender(channelURL, userID, now: now))
    }

    static func sender(_ channelURL: String, _ userID: String, now: Int64) -> Query<Sender?> {
        Query(
            """
            SELECT m.state, m.is_operator, u.user_id, u.nickname, u.profile_url, u.is_active, mu.end_at AS muted_until
            FROM group_channel_members m JOIN users u ON u.user_id = m.user_id
                \(ModerationRepository.join(.mute, .group, channel: "m.channel_url", user: "m.user_id", now: "$3", as: "mu"))
            WHERE m.channel_url = $1 AND m.user_id = $2
            """,
            [channelURL, userID, now]
        ) { rows in
            try rows.first.map { row in
                (
                    try row.decode("state", as: MemberState.self), try row.decode("is_operator"), try UserRepository.basicUser(row),
                    try row.decodeIfPresent("muted_until")
                )
            }
        }
    }

    /// The earliest message time the member may see (reset history, hidden previous messages,
    /// the chat-history option), or nil when they are not a member.
    public func visibleFrom(_ channelURL: String, _ userID: String) throws -> Int64? {
        try connection.query(
            """
            SELECT GREATEST(ts_message_offset, messages_hidden_before) AS visible_from
            FROM group_channel_members WHERE channel_url = $1 AND user_id = $2
            """,
            [channelURL, userID]
        ).first?.decode("visible_from")
    }

    /// Turns an invitation into membership.
    public func join(_ channelURL: String, _ userID: String, now: Int64, tsMessageOffset: Int64) throws {
        try connection.query(
            """
            UPDATE group_channel_members SET state = 'joined', joined_at = $3, ts_message_offset = GREATEST(ts_message_offset, $4),
                read_seq = (SELECT counted_seq FROM group_channels WHERE channel_url = $1)
            WHERE channel_url = $1 AND user_id = $2
            """,
            [channelURL, userID, now, tsMessageOffset]
        )
    }

    /// Removes members; returns the ids that were members.
    @discardableResult
    public func remove(_ channelURL: String, _ userIDs: [String]) throws -> [String] {
        try connection.query(
            "DELETE FROM group_channel_members WHERE channel_url = $1 AND user_id = ANY($2::text[]) RETURNING user_id",
            [channelURL, userIDs]
        ).map { try $0.decode("user_id", as: String.self) }
    }

    /// Deletes the user's member rows in these channels (all of theirs when nil); returns the
    /// channels they were in.
    public func leave(_ userID: String, channelURLs: [String]?) throws -> [String] {
        try connection.query(
            """
            DELETE FROM group_channel_members
            WHERE user_id = $1 AND ($2::text[] IS NULL OR channel_url = ANY($2::text[]))
            RETURNING channel_url
            """,
            [userID, channelURLs]
        ).map { try $0.decode("channel_url", as: String.self) }
    }

    /// Every channel the user is a member of (joined or invited).
    public func channelURLs(of userID: String) throws -> [String] {
        try connection.query("SELECT channel_url FROM group_channel_members WHERE user_id = $1", [userID])
            .map { try $0.decode("channel_url", as: String.self) }
    }

    /// The channels the user has joined, of one custom type when given.
    public func joinedChannelURLs(of userID: String, customType: String?) throws -> [String] {
        try connection.query(
            """
            SELECT m.channel_url FROM group_channel_members m JOIN group_channels c ON c.channel_url = m.channel_url
            WHERE m.user_id = $1 AND m.state = 'joined' AND ($2::text IS NULL OR c.custom_type = $2)
            """, [userID, customType]
        ).map { try $0.decode("channel_url", as: String.self) }
    }

    /// Makes members operators or not; returns the ids that were members.
    @discardableResult
    public func setOperator(_ channelURL: String, _ userIDs: [String], _ isOperator: Bool) throws -> [String] {
        try connection.query(
            "UPDATE group_channel_members SET is_operator = $3 WHERE channel_url = $1 AND user_id = ANY($2::text[]) RETURNING user_id",
            [channelURL, userIDs, isOperator]
        ).map { try $0.decode("user_id", as: String.self) }
    }

    public func setHidden(_ channelURLs: [String], _ userID: String, _ state: HiddenState, hideMessagesBefore: Int64?) throws {
        try connection.query(
            """
            UPDATE group_channel_members SET hidden_state = $3,
                messages_hidden_before = COALESCE($4, messages_hidden_before)
            WHERE channel_url = ANY($1::text[]) AND user_id = $2
            """,
            [channelURLs, userID, state.rawValue, hideMessagesBefore]
        )
    }

    /// The member no longer sees messages sent before `now`.
    public func resetHistory(_ channelURLs: [String], _ userID: String, now: Int64) throws {
        try connection.query(
            "UPDATE group_channel_members SET ts_message_offset = $3 WHERE channel_url = ANY($1::text[]) AND user_id = $2",
            [channelURLs, userID, now]
        )
    }

    /// A page of members after (`sortKey`, `userID`), with their sort keys for the next token, as
    /// `viewerID` sees them (whom they block).
    public func list(_ channelURL: String, _ filter: MemberFilter, viewerID: String?, after: [String]?, limit: Int, now: Int64) throws -> [(
        member: Member, position: [String]
    )] {
        var sql = SQLBuilder()
        let url = sql.bind(channelURL)
        sql.where("m.channel_url = \(url)")
        switch filter.state {
        case .all: break
        case .joinedOnly: sql.where("m.state = 'joined'")
        case .invitedOnly: sql.where("m.state = 'invited'")
        }
        if let operators = filter.operators { sql.where(operators ? "m.is_operator" : "NOT m.is_operator") }
        switch filter.muted {
        case .all: break
        case .muted: sql.where("mu.user_id IS NOT NULL")
        case .unmuted: sql.where("mu.user_id IS NULL")
        }
        let nowParameter = sql.bind(now)
        let viewer = sql.bind(viewerID)
        // Operators first means rank 0 for operators; the nickname order alone ranks everyone 0.
        let rank = filter.order == .operatorThenMemberAlphabetical ? "(CASE WHEN m.is_operator THEN 0 ELSE 1 END)" : "0"
        if let after, after.count == 3 {
            sql.where(
                "(\(rank), u.nickname, u.user_id) > (\(sql.bind(Int(after[0]) ?? 0))::int, \(sql.bind(after[1]))::text COLLATE \"C\", \(sql.bind(after[2]))::text)"
            )
        }
        let rows = try connection.query(
            """
            SELECT \(rank) AS rank, u.user_id, u.nickname, u.profile_url, u.is_active, u.last_seen_at, m.state, m.is_operator,
                \(PresenceRepository.isOnline("u")),
                m.read_ts, m.delivered_ts, mu.end_at AS muted_end_at, vb.blocker_id IS NOT NULL AS is_blocked_by_viewer
            FROM group_channel_members m JOIN users u ON u.user_id = m.user_id
                \(ModerationRepository.join(.mute, .group, channel: "m.channel_url", user: "m.user_id", now: nowParameter, as: "mu"))
                LEFT JOIN user_blocks vb ON vb.blocker_id = \(viewer)::text AND vb.blocked_id = m.user_id
            \(sql.whereClause)
            ORDER BY 1, u.nickname COLLATE "C", u.user_id LIMIT \(sql.bind(limit))
            """,
            sql.parameters
        )
        return try rows.map { row in
            let member = Member(
                user: try UserRepository.basicUser(row),
                state: try row.decode("state", as: MemberState.self),
                isOperator: try row.decode("is_operator"),
                isOnline: try row.decode("is_online"),
                lastSeenAt: try row.decode("last_seen_at"),
                readTS: try row.decode("read_ts"),
                deliveredTS: try row.decode("delivered_ts"),
                mutedEndAt: try row.decodeIfPresent("muted_end_at"),
                isBlockedByViewer: try row.decode("is_blocked_by_viewer")
            )
            return (member, [String(try row.decode("rank", as: Int.self)), member.user.nickname, member.user.userID])
        }
    }
}
