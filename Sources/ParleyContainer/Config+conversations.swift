import ParleyChat

/// The limits of API.md §13 (pins, scheduled messages, polls, search) and scheduled delivery.
extension Config {
    static func readConversations(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.limits.pinnedMessagesPerChannel = try reader.int(
            "PARLEY_MAX_PINNED_MESSAGES", default: config.limits.pinnedMessagesPerChannel, range: 1...1_000)
        config.limits.pollOptions = try reader.int("PARLEY_MAX_POLL_OPTIONS", default: config.limits.pollOptions, range: 1...1_000)
        config.limits.searchQueryLength = try reader.int(
            "PARLEY_MAX_SEARCH_QUERY_LENGTH", default: config.limits.searchQueryLength, range: 1...10_000)
        let day = 24 * 3_600_000
        config.limits.scheduleMinLeadMillis = Int64(
            try reader.int("PARLEY_SCHEDULE_MIN_LEAD_MS", default: Int(config.limits.scheduleMinLeadMillis), range: 0...day))
        config.limits.scheduleMaxLeadMillis = Int64(
            try reader.int("PARLEY_SCHEDULE_MAX_LEAD_MS", default: Int(config.limits.scheduleMaxLeadMillis), range: 60_000...(366 * day)))
        config.limits.scheduledPerChannel = try reader.int(
            "PARLEY_MAX_SCHEDULED_PER_CHANNEL", default: config.limits.scheduledPerChannel, range: 1...100_000)
        config.scheduledDelivery.enabled = try reader.bool("PARLEY_SCHEDULED_DELIVERY", default: true)
        config.scheduledDelivery.pollInterval = .milliseconds(
            try reader.int("PARLEY_SCHEDULED_POLL_MS", default: Int(config.scheduledDelivery.pollInterval.milliseconds), range: 10...10_000)
        )
        config.scheduledDelivery.lease = .milliseconds(
            try reader.int("PARLEY_SCHEDULED_LEASE_MS", default: Int(config.scheduledDelivery.lease.milliseconds), range: 100...600_000))
    }
}
