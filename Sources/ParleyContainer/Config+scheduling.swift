import ParleyChat

/// Scheduled messages' limits and delivery (API.md §13.3).
extension Config {
    static func readScheduling(into config: inout Config, _ reader: EnvironmentReader) throws {
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
