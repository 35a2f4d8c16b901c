import ByteCoding
import Foundation
import ParleyChat
import ParleyCore
import ParleyStore

/// Sends an announcement (API.md §14.4) as a leased job: batch by batch, each target's message
/// through the ordinary send path (its events, webhooks, pushes and unread counts as any send's),
/// then, in one transaction per batch, the recipients it reached and where the sending stands.
///
/// A run that dies midway is taken over from the last batch: a user message carries the dedup id
/// `announcement:<unique_id>`, so a channel the lost batch reached gets no second copy (an admin
/// message has no sender to dedup by: it is sent at least once). Between batches the run reads
/// the announcement again: paused or canceled, it stops; past `end_at`, it is stopped; inside its
/// daily pause, the job is given back until the pause ends.
public struct AnnouncementJob: JobHandler {
    public static let jobKind = "announcement"
    public let kind = AnnouncementJob.jobKind
    let messages: MessageService
    let groupChannels: GroupChannelService
    let batchSize: Int

    public init(messages: MessageService, groupChannels: GroupChannelService, batchSize: Int) {
        self.messages = messages
        self.groupChannels = groupChannels
        self.batchSize = batchSize
    }

    struct Params: Codable {
        let uniqueID: String

        enum CodingKeys: String, CodingKey { case uniqueID = "unique_id" }
    }

    /// The job's own progress is the announcement's (`next_target`): nothing to keep here.
    struct NoProgress: Codable, Sendable {}

    public func run(_ job: RunningJob) async throws -> String {
        let uniqueID = try JSONDecoder().decode(Params.self, from: Data(job.job.params.utf8)).uniqueID
        while true {
            let now = job.clock.nowMillis
            guard let announcement = try await start(uniqueID, job, now: now) else {
                return #"{"unique_id":"\#(uniqueID)"}"#
            }
            let targets = try await nextTargets(announcement, job)
            var sent: [(channelURL: String, message: Message)] = []
            for target in targets.items {
                if let channelURL = try await channel(for: target, announcement, job),
                    let message = try await send(announcement, to: channelURL)
                {
                    sent.append((channelURL, message))
                }
            }
            let (progress, done, reached, senderID) = (targets.progress, targets.items.isEmpty, sent, announcement.senderID)
            let (finished, _) = try await job.step(
                { repositories, _ in
                    guard let current = try repositories.announcements.find(uniqueID, forUpdate: true) else { return true }
                    var progress = progress
                    progress.sentChannelCount += reached.count
                    for (channelURL, message) in reached {
                        progress.sentUserCount += try repositories.announcements.recordRecipients(
                            uniqueID, channelURL: channelURL, messageID: message.messageID, sentAt: message.createdAt,
                            senderID: senderID)
                    }
                    try repositories.announcements.saveProgress(uniqueID, progress)
                    // A pause or cancel that came meanwhile stays; the batch's messages are counted.
                    guard current.status == .running else { return true }
                    if done { try repositories.announcements.setStatus(uniqueID, .completed, completedAt: now) }
                    return done
                }, from: NoProgress())
            if finished { return #"{"unique_id":"\#(uniqueID)"}"# }
        }
    }

    /// The announcement to go on with, marked running (its reach counted when it starts); nil
    /// when it is over or paused. Past `end_at` it is stopped; in its daily pause, deferred.
    private func start(_ uniqueID: String, _ job: RunningJob, now: Int64) async throws -> Announcement? {
        try await job.store.transaction { repositories in
            guard var announcement = try repositories.announcements.find(uniqueID, forUpdate: true),
                announcement.status == .scheduled || announcement.status == .running
            else { return nil }
            if announcement.endAt > 0 && now >= announcement.endAt {
                try repositories.announcements.setStatus(uniqueID, .stopped, completedAt: now)
                return nil
            }
            // Rescheduled later after this job was made.
            if now < announcement.scheduledAt { throw JobDeferral(until: announcement.scheduledAt) }
            if let cease = announcement.ceaseAt, let resume = announcement.resumeAt,
                let remaining = DailyPause.remaining(cease: cease, resume: resume, now: now)
            {
                throw JobDeferral(until: now + remaining)
            }
            if announcement.status == .scheduled {
                announcement.status = .running
                try repositories.announcements.setStatus(uniqueID, .running, completedAt: nil)
                if announcement.progress == Announcement.Progress() {
                    announcement.progress = try Self.reach(announcement, repositories)
                    try repositories.announcements.saveProgress(uniqueID, announcement.progress)
                }
            }
            return announcement
        }
    }

    /// Whom it reaches as it starts: the channels and their members but the sender, or the users.
    static func reach(_ announcement: Announcement, _ repositories: Repositories) throws -> Announcement.Progress {
        var progress = Announcement.Progress()
        switch announcement.target {
        case .senderAllChannels, .channels:
            let reach = try repositories.announcements.reach(
                channels: announcement.target == .channels ? announcement.targetList : nil, sender: announcement.senderID,
                type: announcement.channelType)
            (progress.targetChannelCount, progress.targetUserCount) = reach
        case .usersIncludingNewChannels, .usersOnlyExistingChannels:
            (progress.targetChannelCount, progress.targetUserCount) = (announcement.targetList.count, announcement.targetList.count)
        }
        return progress
    }

    /// The next batch of targets (channel URLs, or user ids), and the progress past them.
    private func nextTargets(_ announcement: Announcement, _ job: RunningJob) async throws -> (
        items: [String], progress: Announcement.Progress
    ) {
        var progress = announcement.progress
        guard announcement.target == .senderAllChannels else {
            let items = Array(announcement.targetList.dropFirst(progress.nextTarget).prefix(batchSize))
            progress.nextTarget += items.count
            return (items, progress)
        }
        let (sender, type, after, limit) = (announcement.senderID, announcement.channelType, progress.nextChannel, batchSize)
        let items = try await job.store.read { try $0.announcements.senderChannels(sender, type: type, after: after, limit: limit) }
        progress.nextChannel = items.last ?? progress.nextChannel
        progress.nextTarget += items.count
        return (items, progress)
    }

    /// The channel a target means: itself, or the user's 1-to-1 channel with the sender (made
    /// when the announcement says so); nil when there is none.
    private func channel(for target: String, _ announcement: Announcement, _ job: RunningJob) async throws -> String? {
        guard announcement.target.isUsers else { return target }
        let sender = announcement.senderID
        if let existing = try await job.store.read({ try $0.announcements.distinctChannel(of: sender, and: target) }) {
            return existing
        }
        guard announcement.target == .usersIncludingNewChannels || announcement.createChannel else { return nil }
        let options = announcement.channelOptions
        // A channel that is not distinct gets a URL of its own per announcement and user, so that a
        // batch sent again finds the channel it made rather than making another.
        let request = NewGroupChannel(
            channelURL: options.distinct
                ? nil : "announcement_" + Hex.encode(SecretHashing.sha256("\(announcement.uniqueID)\n\(target)")).prefix(32),
            userIDs: [target], name: options.name, coverURL: options.coverURL, customType: options.customType, data: options.data,
            isDistinct: options.distinct, inviterID: sender)
        do {
            return try await groupChannels.create(.admin, request).view.channel.channelURL
        } catch let error as ParleyError where error.status == 409 {
            return request.channelURL
        } catch let error as ParleyError where error.status == 400 || error.status == 404 {
            return nil  // The user (or the sender) is gone.
        }
    }

    /// Sends the announcement's message into one channel; nil when the channel refuses it (gone,
    /// the sender not a member, frozen, the sender banned or muted): that channel is skipped.
    private func send(_ announcement: Announcement, to channelURL: String) async throws -> Message? {
        var new = NewMessage(
            type: announcement.messageType, senderID: announcement.messageType == .admin ? nil : announcement.senderID,
            message: announcement.content, customType: announcement.customType, data: announcement.data, mentionType: .users,
            mentionedUserIDs: [], sortedMetaarray: [], dedupID: "announcement:\(announcement.uniqueID)", isSilent: false)
        new.sendsPush = announcement.enablePush
        do {
            return try await messages.send(.admin, .group, channelURL, new).message
        } catch let error as ParleyError where (400..<500).contains(error.status) && error.status != 429 {
            return nil
        }
    }
}
