import ParleyCompliance

/// Background jobs (API.md §14): GDPR requests, exports, retention; the statistics' recording.
extension Config {
    static func readCompliance(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.jobs.enabled = try reader.bool("PARLEY_JOBS", default: true)
        config.jobs.pollInterval = .milliseconds(
            try reader.int("PARLEY_JOB_POLL_MS", default: Int(config.jobs.pollInterval.milliseconds), range: 10...60_000))
        config.jobs.lease = .milliseconds(
            try reader.int("PARLEY_JOB_LEASE_MS", default: Int(config.jobs.lease.milliseconds), range: 1_000...3_600_000))
        config.jobs.archiveLifetime = .seconds(
            3600
                * (try reader.int(
                    "PARLEY_DOWNLOAD_LINK_HOURS", default: Int(config.jobs.archiveLifetime.milliseconds / 3_600_000), range: 1...8760)))
        config.jobs.statisticsInterval = .milliseconds(
            try reader.int("PARLEY_STATISTICS_INTERVAL_MS", default: Int(config.jobs.statisticsInterval.milliseconds), range: 10...600_000))
        let days = try reader.int("PARLEY_MESSAGE_RETENTION_DAYS", default: 0, range: 0...36_500)
        config.jobs.messageRetention = days == 0 ? nil : .seconds(days * 86_400)
        config.jobs.retentionInterval = .seconds(
            try reader.int(
                "PARLEY_RETENTION_INTERVAL_SECONDS", default: Int(config.jobs.retentionInterval.milliseconds / 1000), range: 1...86_400))
        config.jobs.channelRetentionInterval = .seconds(
            try reader.int(
                "PARLEY_CHANNEL_RETENTION_INTERVAL_SECONDS", default: Int(config.jobs.channelRetentionInterval.milliseconds / 1000),
                range: 1...3_600))
        config.jobs.batchSize = try reader.int("PARLEY_JOB_BATCH", default: config.jobs.batchSize, range: 1...10_000)
    }
}
