import Logging
import ParleyChat
import ParleyCompliance
import ParleyCore
import ParleyFiles
import ParleyStore
import ParleyUsers

extension Container {
    /// The leased jobs any instance may take (API.md §14), and those that recur.
    static func jobRunner(
        _ config: Config, store: Store, clock: Clock, users: UserService, groupChannels: GroupChannelService, messages: MessageService,
        files: FileService, archives: SignedLinks, logger: Logger
    ) -> JobRunner {
        let batchSize = config.jobs.batchSize
        let gdprJob = GDPRJob(users: users, groupChannels: groupChannels, files: files, archives: archives, batchSize: batchSize)
        let exportJobs: [any JobHandler] = ExportKind.allCases.map {
            ExportJob($0, files: files, links: archives, pageSize: 5 * batchSize)
        }
        let announcementJob = AnnouncementJob(messages: messages, groupChannels: groupChannels, batchSize: batchSize)
        let retention = config.jobs.messageRetention.map { RetentionJob(files: files, retention: $0, batchSize: batchSize) }
        return JobRunner(
            store: store, clock: clock,
            handlers: [
                gdprJob, announcementJob, ChannelRetentionJob(files: files, batchSize: batchSize), AddressLimitSweepJob(),
                StoredFileSweepJob(files: files)
            ]
                + exportJobs + (retention.map { [$0] } ?? []),
            recurring: [
                RecurringJob(kind: ChannelRetentionJob.jobKind, interval: config.jobs.channelRetentionInterval),
                RecurringJob(kind: AddressLimitSweepJob.jobKind, interval: AddressLimitSweepJob.interval),
                RecurringJob(kind: StoredFileSweepJob.jobKind, interval: StoredFileSweepJob.interval)
            ] + (retention == nil ? [] : [RecurringJob(kind: RetentionJob.jobKind, interval: config.jobs.retentionInterval)]),
            settings: config.jobs, logger: logger)
    }
}
