import ParleyChat
import Postgres

/// The limits of API.md §13 (pins, scheduled messages, polls, search) and scheduled delivery.
extension Config {
    /// The searches' own pool (issue 50.1): `PARLEY_SEARCH_CONNECTIONS` connections whose
    /// statements time out after `PARLEY_SEARCH_TIMEOUT_MS`; searches wait for them no longer than
    /// other requests wait for theirs.
    var searchPoolConfiguration: ConnectionPool.Configuration {
        var configuration = ConnectionPool.Configuration(conninfo: databaseURL, size: search.connections)
        configuration.acquireTimeout = databaseAcquireTimeout
        configuration.maxWaiting = databaseMaxWaiting
        configuration.session = databaseSession
        configuration.session.statementTimeout = search.statementTimeout
        return configuration
    }

    /// The settings of the chat services, from their parts.
    var chatSettings: ChatSettings {
        var settings = ChatSettings(limits: limits, chatHistory: chatHistory)
        settings.translationSendLimit = translationSendLimit
        settings.translationLimit = translationLimit
        settings.sessionUsersChooseChannelURLs = sessionUsersChooseChannelURLs
        return settings
    }

    static func readConversations(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.limits.pinnedMessagesPerChannel = try reader.int(
            "PARLEY_MAX_PINNED_MESSAGES", default: config.limits.pinnedMessagesPerChannel, range: 1...1_000)
        config.limits.pollOptions = try reader.int("PARLEY_MAX_POLL_OPTIONS", default: config.limits.pollOptions, range: 1...1_000)
        config.limits.searchQueryLength = try reader.int(
            "PARLEY_MAX_SEARCH_QUERY_LENGTH", default: config.limits.searchQueryLength, range: 1...10_000)
        config.limits.searchTerms = try reader.int("PARLEY_MAX_SEARCH_TERMS", default: config.limits.searchTerms, range: 1...1_000)
        config.search.connections = try reader.int("PARLEY_SEARCH_CONNECTIONS", default: config.search.connections, range: 1...256)
        config.search.statementTimeout = .milliseconds(
            try reader.int(
                "PARLEY_SEARCH_TIMEOUT_MS", default: Int(config.search.statementTimeout.milliseconds), range: 10...3_600_000))
        config.search.perUser = try reader.int("PARLEY_SEARCHES_PER_USER", default: config.search.perUser, range: 1...1_000)
        config.search.ranked = try reader.int("PARLEY_SEARCH_RANKED", default: config.search.ranked, range: 1...1_000_000)
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
