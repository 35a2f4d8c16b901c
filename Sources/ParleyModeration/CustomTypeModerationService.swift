import ParleyCore
import ParleyStore

/// Bans and mutes by channel custom type (API.md §14.7, Sendbird's
/// `/v3/applications/settings_by_channel_custom_type/{custom_type}/ban|mute` and
/// `/v3/users/{user_id}/banned_channel_custom_types|muted_channel_custom_types`): the admin's.
/// A ban or mute holds in every channel of the type, group or open, present and future, read
/// beside the channel's own (`ModerationRepository`); a ban also takes the user out of the
/// channels of the type they are in now, as a channel's ban does.
public struct CustomTypeModerationService: Sendable {
    let store: Store
    let clock: Clock
    let pageTokens: PageTokenCodec
    let channels: [ChannelKind: any ModeratedChannels]

    public init(store: Store, clock: Clock, pageTokens: PageTokenCodec, channels: [ChannelKind: any ModeratedChannels]) {
        self.store = store
        self.clock = clock
        self.pageTokens = pageTokens
        self.channels = channels
    }

    /// Bans or mutes each user for each custom type (`seconds` -1: until lifted).
    public func impose(_ caller: Caller, _ restriction: RestrictionKind, customTypes: [String], _ entries: [NewRestriction]) async throws {
        try caller.requireAdmin()
        let customTypes = try customTypes.map(Self.checked).orderedUnique()
        guard !customTypes.isEmpty else { throw ParleyError.missing("channel_custom_types") }
        for entry in entries { try NewRestriction.validate(seconds: entry.seconds) }
        let now = clock.nowMillis
        let userIDs = entries.map(\.userID).orderedUnique()
        try await store.transaction { repositories in
            let known = Set(try repositories.users.basicUsers(userIDs).map(\.userID))
            let unknown = userIDs.filter { !known.contains($0) }
            guard unknown.isEmpty else { throw ParleyError.unknownReference("Users not found: \(unknown.joined(separator: ", ")).") }
            let rows = entries.map { (userID: $0.userID, endAt: $0.endAt(from: now), description: $0.description) }
            for customType in customTypes {
                try repositories.customTypes(restriction).impose(customType, rows, now: now)
                for row in rows {
                    try repositories.auditLogs.append(
                        NewAuditEntry(
                            restriction == .ban ? .ban : .mute, actorID: nil, targetUserID: row.userID,
                            details: ["custom_type": customType, "end_at": String(row.endAt), "description": row.description]))
                    if restriction == .ban { try removeFromChannels(row.userID, customType, repositories) }
                }
            }
        }
    }

    /// A banned user leaves the channels of the type they are in (group channels locked first,
    /// in the project's lock order), each with its events.
    private func removeFromChannels(_ userID: String, _ customType: String, _ repositories: Repositories) throws {
        let current = try repositories.customTypeBans.channels(of: userID, customType: customType)
        try repositories.groupChannels.lock(current.filter { $0.kind == .group }.map(\.channelURL))
        for (kind, channelURL) in current {
            try channels[kind]?.remove(userID, from: channelURL, repositories)
        }
    }

    /// Lifts them; 404 when none of the users had one.
    public func lift(_ caller: Caller, _ restriction: RestrictionKind, customType: String, userIDs: [String]) async throws {
        try caller.requireAdmin()
        let customType = try Self.checked(customType)
        guard !userIDs.isEmpty else { throw ParleyError.missing("user_ids") }
        try await store.transaction { repositories in
            let lifted = try repositories.customTypes(restriction).lift(customType, userIDs: userIDs)
            guard !lifted.isEmpty else {
                throw ParleyError.notFound("None of these users is \(restriction == .ban ? "banned" : "muted") in \(customType) channels.")
            }
            for userID in lifted {
                try repositories.auditLogs.append(
                    NewAuditEntry(
                        restriction == .ban ? .unban : .unmute, actorID: nil, targetUserID: userID, details: ["custom_type": customType]))
            }
        }
    }

    /// Those in force, in user id order.
    public func list(_ caller: Caller, _ restriction: RestrictionKind, customType: String, limit: Int, pageToken: String?) async throws
        -> Page<Restriction>
    {
        try caller.requireAdmin()
        let customType = try Self.checked(customType)
        let scope = "custom-type-\(restriction.rawValue)|\(customType)"
        let after = try pageToken.map { try pageTokens.decode($0, scope: scope) }.flatMap(\.first)
        let now = clock.nowMillis
        let rows = try await store.read { try $0.customTypes(restriction).list(customType, afterUserID: after, limit: limit + 1, now: now) }
        let items = Array(rows.prefix(limit))
        return Page(items: items, positions: items.map { [$0.user.userID] }, more: rows.count > limit, tokens: pageTokens, scope: scope)
    }

    static func checked(_ customType: String) throws -> String {
        guard !customType.isEmpty else { throw ParleyError.invalidValue("custom_type", "must not be empty") }
        return try Validation.text(customType, field: "custom_type", max: Validation.maxCustomTypeLength)
    }
}

extension Repositories {
    func customTypes(_ restriction: RestrictionKind) -> CustomTypeRestrictionRepository {
        restriction == .ban ? customTypeBans : customTypeMutes
    }
}
