/// The orders of channel lists (API.md §3.8).
public enum ChannelOrder: String, Sendable, CaseIterable {
    /// Newest message first; channels without messages by creation time.
    case latestLastMessage = "latest_last_message"
    /// Newest channel first.
    case chronological
    /// By name, case-insensitively.
    case channelNameAlphabetical = "channel_name_alphabetical"
    /// By the value of the channel metadata key `metadata_order_key`; channels without it last.
    case metadataValueAlphabetical = "metadata_value_alphabetical"
}

public enum HiddenMode: String, Sendable, CaseIterable {
    case unhiddenOnly = "unhidden_only"
    case hiddenOnly = "hidden_only"
    case hiddenAllowAutoUnhide = "hidden_allow_auto_unhide"
    case hiddenPreventAutoUnhide = "hidden_prevent_auto_unhide"
    case all
}

public enum MemberStateFilter: String, Sendable, CaseIterable {
    case all
    case joinedOnly = "joined_only"
    case invitedOnly = "invited_only"
}

public enum TriStateMode: Sendable, Equatable {
    case all, only, excluded
}

public enum MembersQueryType: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
}

/// The filters of `my_group_channels` and `GET /v3/group_channels` (API.md §3.8, §3.9).
public struct ChannelFilter: Sendable, Equatable {
    public var showEmpty = true
    /// `unread_filter=unread_message`: only channels with unread messages for the viewer.
    public var unreadOnly = false
    public var hiddenMode: HiddenMode = .all
    public var memberState: MemberStateFilter = .all
    public var membersExactlyIn: [String]?
    public var membersIncludeIn: [String]?
    public var membersQueryType: MembersQueryType = .and
    public var customTypes: [String]?
    public var customTypeStartsWith: String?
    public var nameContains: String?
    public var channelURLs: [String]?
    public var superMode: TriStateMode = .all
    public var publicMode: TriStateMode = .all
    public var distinctMode: TriStateMode = .all
    public var createdAfter: Int64?
    public var createdBefore: Int64?
    public var order: ChannelOrder = .latestLastMessage
    public var metadataOrderKey: String?
    public var metadata: MetadataFilter?
    public var metacounter: MetacounterFilter?

    public init() {}

    /// A stable text of every filter, so that a page token only pages the list it came from.
    public var scope: String {
        func list(_ values: [String]?) -> String { values?.joined(separator: ",") ?? "-" }
        var parts: [String] = ["\(showEmpty)", "\(unreadOnly)", hiddenMode.rawValue, memberState.rawValue]
        parts.append(list(membersExactlyIn?.sorted()))
        parts.append(list(membersIncludeIn?.sorted()))
        parts.append(membersQueryType.rawValue)
        parts.append(list(customTypes))
        parts.append(customTypeStartsWith ?? "-")
        parts.append(nameContains ?? "-")
        parts.append(list(channelURLs))
        parts.append("\(superMode)|\(publicMode)|\(distinctMode)")
        parts.append(createdAfter.map { String($0) } ?? "-")
        parts.append(createdBefore.map { String($0) } ?? "-")
        parts.append(order.rawValue)
        parts.append(metadataOrderKey ?? "-")
        parts.append(metadata.map { "\($0)" } ?? "-")
        parts.append(metacounter.map { "\($0)" } ?? "-")
        return parts.joined(separator: "|")
    }
}

/// Channels whose metadata holds `key` (Sendbird's `metadata_key`), with one of `values`
/// (`metadata_values`) or a value starting with `prefix` (`metadata_value_startswith`).
public struct MetadataFilter: Sendable, Equatable {
    public var key: String
    public var values: [String]?
    public var prefix: String?

    public init(key: String, values: [String]? = nil, prefix: String? = nil) {
        (self.key, self.values, self.prefix) = (key, values, prefix)
    }
}

/// Channels whose metacounters hold `key` (Sendbird's `metacounter_key`), with one of `values`
/// (`metacounter_values`) and within the bounds given (`metacounter_value_gt`, `_gte`, `_lt`, `_lte`).
public struct MetacounterFilter: Sendable, Equatable {
    public var key: String
    public var values: [Int64]?
    public var greaterThan: Int64?
    public var atLeast: Int64?
    public var lessThan: Int64?
    public var atMost: Int64?

    public init(key: String) {
        self.key = key
    }
}
