import ByteCoding
import ParleyCore
import ParleyHTTPConventions

extension QueryParameters {
    /// The channel list filters of API.md §3.8 from the query string.
    func channelFilter(defaultHiddenMode: HiddenMode) throws -> ChannelFilter {
        var filter = ChannelFilter()
        filter.showEmpty = try bool("show_empty", default: true)
        switch string("unread_filter") ?? "all" {
        case "all": filter.unreadOnly = false
        case "unread_message": filter.unreadOnly = true
        default: throw ParleyError.invalidValue("unread_filter", "must be all or unread_message")
        }
        filter.hiddenMode = try choice("hidden_mode", default: defaultHiddenMode)
        filter.memberState = try choice("member_state_filter", default: MemberStateFilter.all)
        filter.membersExactlyIn = list("members_exactly_in")
        filter.membersIncludeIn = list("members_include_in")
        filter.membersQueryType = try choice("query_type", default: MembersQueryType.and)
        filter.customTypes = list("custom_types")
        filter.customTypeStartsWith = string("custom_type_startswith")
        filter.nameContains = string("name_contains")
        filter.channelURLs = list("channel_urls")
        filter.superMode = try mode("super_mode", only: "super", excluded: "nonsuper")
        filter.publicMode = try mode("public_mode", only: "public", excluded: "private")
        filter.distinctMode = try mode("distinct_mode", only: "distinct", excluded: "nondistinct")
        filter.createdAfter = try int64("created_after")
        filter.createdBefore = try int64("created_before")
        filter.order = try choice("order", default: ChannelOrder.latestLastMessage)
        filter.metadataOrderKey = string("metadata_order_key")?.nfc
        filter.metadata = try metadataFilter()
        filter.metacounter = try metacounterFilter()
        return filter
    }

    /// `metadata_key` with `metadata_values` or `metadata_value_startswith` (either without the key: 400105).
    func metadataFilter() throws -> MetadataFilter? {
        let (values, prefix) = (list("metadata_values")?.map(\.nfc), string("metadata_value_startswith")?.nfc)
        guard let key = string("metadata_key")?.nfc else {
            if values != nil || prefix != nil { throw ParleyError.missing("metadata_key") }
            return nil
        }
        return MetadataFilter(key: key, values: values, prefix: prefix)
    }

    /// `metacounter_key` with `metacounter_values` (whole numbers) and the bounds `metacounter_value_gt`,
    /// `_gte`, `_lt`, `_lte` (any of them without the key: 400105).
    func metacounterFilter() throws -> MetacounterFilter? {
        let values = try list("metacounter_values").map { texts in
            try texts.map { text in
                guard let value = Int64(text) else {
                    throw ParleyError.invalidValue("metacounter_values", "must be whole numbers, comma-separated")
                }
                return value
            }
        }
        let bounds = try ["gt", "gte", "lt", "lte"].map { try int64("metacounter_value_\($0)") }
        guard let key = string("metacounter_key")?.nfc else {
            if values != nil || bounds.contains(where: { $0 != nil }) { throw ParleyError.missing("metacounter_key") }
            return nil
        }
        var filter = MetacounterFilter(key: key)
        filter.values = values
        (filter.greaterThan, filter.atLeast, filter.lessThan, filter.atMost) = (bounds[0], bounds[1], bounds[2], bounds[3])
        return filter
    }

    /// `all`, or the values meaning "only" and "excluded" (e.g. `super` / `nonsuper`).
    func mode(_ key: String, only: String, excluded: String) throws -> TriStateMode {
        switch string(key) {
        case nil, "all": return .all
        case only: return .only
        case excluded: return .excluded
        default: throw ParleyError.invalidValue(key, "must be one of all, \(only), \(excluded)")
        }
    }
}
