/// The limits that keep one user, or one receiver, from exhausting the server (issue 29).
extension Config {
    static func readFairness(into config: inout Config, _ reader: EnvironmentReader) throws {
        config.webhookDelivery.maxRetryAfter = .seconds(
            try reader.int("PARLEY_WEBHOOK_MAX_RETRY_AFTER_SECONDS", default: 3600, range: 1...86400))
        config.linkPreviews.concurrency = try reader.int("PARLEY_LINK_PREVIEW_CONCURRENCY", default: 8, range: 1...256)
        config.linkPreviews.perUser = try reader.int("PARLEY_LINK_PREVIEWS_PER_USER", default: 10, range: 1...10_000)
        config.limits.thumbnailMaxSide = try reader.int("PARLEY_THUMBNAIL_MAX_SIDE", default: 2048, range: 1...8192)
        config.files.thumbnailPixelBudget = try reader.int("PARLEY_THUMBNAIL_PIXEL_BUDGET", default: 100_000_000)
        config.files.thumbnailJobsPerUser = try reader.int("PARLEY_THUMBNAIL_JOBS_PER_USER", default: 2, range: 1...64)
        config.addressLimits.authFailuresPerMinute = try reader.int(
            "PARLEY_AUTH_FAILURES_PER_MINUTE", default: config.addressLimits.authFailuresPerMinute, range: 0...1_000_000)
        config.addressLimits.uploadsPerMinute = try reader.int(
            "PARLEY_UPLOADS_PER_MINUTE", default: config.addressLimits.uploadsPerMinute, range: 0...1_000_000)
    }
}
