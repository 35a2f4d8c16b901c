import Logging
import ParleyCore
import ParleyFiles
import ParleyStore
import ServiceLifecycle

/// How pushes are delivered (API.md §12.6).
public struct PushSettings: Sendable {
    /// A push not delivered within this after its message was sent is dropped.
    public var deliveryLimit: Duration = .seconds(600)
    /// How often the queue is looked at for expired pushes.
    public var sweepInterval: Duration = .seconds(60)
    /// Queued messages (and devices to retry) claimed at once by an instance.
    public var batch = 64
    /// Members read per query when deciding who receives a push.
    public var candidatePage = 1000
    /// Provider requests in flight at once per instance.
    public var concurrency = 256
    /// How long a claim keeps other instances off a push; past it (the instance died), the push
    /// is due again.
    public var lease: Duration = .seconds(60)
    /// How often an idle instance looks for due pushes.
    public var pollInterval: Duration = .milliseconds(100)
    public var firstBackoff: Duration = .seconds(1)
    public var maxBackoff: Duration = .seconds(60)
    /// A provider's `Retry-After` counts for at most this.
    public var maxRetryAfter: Duration = .seconds(300)

    var backoff: RetryBackoff { RetryBackoff(first: firstBackoff, max: maxBackoff, maxRetryAfter: maxRetryAfter) }

    public init() {}
}

/// The push queue's worker on every instance (API.md §12.3–12.6), a lifecycle service: claims
/// queued messages with a lease, decides their recipients at dispatch (`PushAudience`, members
/// read in pages, never a query per recipient), writes each recipient's content and sends it
/// through the provider of each device, then records in one transaction what is done, which
/// devices to retry and which tokens are dead. It also drops pushes past the 10-minute limit.
public final class PushDispatcher: Service, Sendable {
    let store: Store
    let providers: PushProviders
    let settings: PushSettings
    let clock: Clock
    let files: (baseURL: String, keys: FileAuthKeys)
    let appID: String
    let logger: Logger

    public init(
        store: Store, providers: PushProviders, settings: PushSettings, clock: Clock, fileBaseURL: String, fileKeys: FileAuthKeys,
        appID: String, logger: Logger
    ) {
        self.store = store
        self.providers = providers
        self.settings = settings
        self.clock = clock
        self.files = (fileBaseURL, fileKeys)
        self.appID = appID
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var sweptAt = ContinuousClock.now - self.settings.sweepInterval
            var countedAt = ContinuousClock.now - PushMetrics.depthInterval
            while !Task.isCancelled {
                if ContinuousClock.now - sweptAt >= self.settings.sweepInterval {
                    sweptAt = .now
                    await self.dropExpired()
                }
                if ContinuousClock.now - countedAt >= PushMetrics.depthInterval {
                    countedAt = .now
                    if let pending = try? await self.store.read({ try $0.pushQueue.pendingCount() }) { PushMetrics.pending.record(pending) }
                }
                let claimed = await self.dispatchDue()
                if claimed < self.settings.batch { try await Task.sleep(for: self.settings.pollInterval) }
            }
        }
        providers.shutdown()
    }

    /// One pass: the expired pushes go.
    func dropExpired() async {
        do {
            let dropped = try await store.transaction {
                try $0.pushQueue.dropExpired(olderThanMillis: self.settings.deliveryLimit.milliseconds)
            }
            if dropped > 0 {
                PushMetrics.expired.increment(by: dropped)
                logger.debug("expired pushes dropped", metadata: ["pushes": "\(dropped)"])
            }
        } catch {
            logger.warning("dropping expired pushes failed", metadata: ["error": "\(error)"])
        }
    }

    /// One round: claims what is due (queued messages and devices to retry), pushes it, and
    /// records the outcome; returns how many were claimed. With no provider configured nothing
    /// is claimed (the rows expire).
    @discardableResult
    public func dispatchDue() async -> Int {
        guard !providers.isEmpty else { return 0 }
        let now = clock.nowMillis
        let leaseUntil = now + settings.lease.milliseconds
        do {
            let claimed = try await store.transaction { repositories in
                try repositories.pushQueue.claim(now: now, leaseUntil: leaseUntil, limit: self.settings.batch)
                    + repositories.pushQueue.claimRetries(now: now, leaseUntil: leaseUntil, limit: self.settings.batch)
            }
            guard !claimed.isEmpty else { return 0 }
            let outcome = try await push(claimed)
            try await store.transaction { try $0.pushQueue.finish(outcome) }
            return claimed.count
        } catch is CancellationError {
            // Shutting down: what was claimed and not recorded is due again when its lease runs out.
            return 0
        } catch {
            // Whatever was claimed and not recorded is due again when its lease runs out.
            logger.warning("dispatching pushes failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    private func push(_ claimed: [ClaimedPush]) async throws -> PushRoundOutcome {
        let (messages, templates) = try await store.read { repositories in
            (try repositories.pushQueue.messages(claimed.map(\.messageID)), try repositories.pushPreferences.templates())
        }
        var outcome = PushRoundOutcome()
        // Messages gone since (the channel deleted) or removed push nothing, and are done. A
        // message is pushed once per round (a queued message's own claim over its retries).
        var live: [Int64: ClaimedPush] = [:]
        for claim in claimed where messages[claim.messageID].map({ !$0.message.isRemoved }) ?? false {
            if live[claim.messageID]?.devices == nil, live[claim.messageID] != nil { continue }
            live[claim.messageID] = claim
        }
        // One task group for the round: the next page is read and decided while the pushes of
        // the last are still in flight, `concurrency` at most.
        let sent = try await withThrowingTaskGroup(of: Sent.self) { sending in
            var results: [Sent] = []
            var inFlight = 0
            var windows = WindowDecisions()
            for group in Self.groups(live.values.sorted { $0.messageID < $1.messageID }, messages, page: settings.candidatePage) {
                // A group of several messages is read whole; one message of more members, a page at a time.
                var after = ""
                while true {
                    let (from, limit) = (after, group.count == 1 ? settings.candidatePage : nil)
                    let page = try await store.read { repositories in
                        try repositories.pushQueue.candidates(group, after: from, limit: limit)
                    }
                    for candidate in try await decide(page, messages, &windows, now: clock.nowMillis) {
                        let stored = messages[candidate.messageID]!
                        for (push, provider) in devicePushes(candidate, stored, claim: live[candidate.messageID]!, templates: templates) {
                            if inFlight >= settings.concurrency, let done = try await sending.next() {
                                results.append(done)
                                inFlight -= 1
                            }
                            let claim = live[candidate.messageID]!
                            sending.addTask {
                                Sent(push: push, claim: claim, outcome: await provider.send(push), answeredAt: self.clock.nowMillis)
                            }
                            inFlight += 1
                        }
                    }
                    guard let last = page.last, let limit, page.count == limit else { break }
                    after = last.audience.userID
                }
            }
            for try await done in sending { results.append(done) }
            return results
        }
        record(sent, into: &outcome, now: clock.nowMillis)
        for claim in claimed {
            if let devices = claim.devices {
                // Retried devices not pushed again are done (their owner came online, or is gone).
                let retried = Set(outcome.retries.filter { $0.messageID == claim.messageID }.map { $0.type + ":" + $0.token })
                outcome.doneRetries += devices.filter { !retried.contains($0.key) }.map {
                    PushRoundOutcome.Device(messageID: claim.messageID, type: $0.type, token: $0.token)
                }
            } else {
                outcome.doneMessages.append(claim.messageID)
            }
        }
        return outcome
    }

    typealias CandidateRead = (id: Int64, channelURL: String, senderID: String?, onlyDevices: [RetriedDevice]?)

    /// The claimed messages in groups read by one statement each: small channels together, up to
    /// about a page of members, a channel of more than a page alone (read a page at a time).
    static func groups(_ claims: [ClaimedPush], _ messages: [Int64: PushMessage], page: Int) -> [[CandidateRead]] {
        var groups: [[CandidateRead]] = []
        var current: [CandidateRead] = []
        var members = 0
        for claim in claims {
            let stored = messages[claim.messageID]!
            let read = (claim.messageID, stored.message.channelURL, stored.message.sender?.userID, claim.devices)
            let size = claim.devices?.count ?? stored.joinedMemberCount
            if size > page {
                groups.append([read])
                continue
            }
            if members + size > page, !current.isEmpty {
                groups.append(current)
                (current, members) = ([], 0)
            }
            current.append(read)
            members += size
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Which candidates of a page receive their message's push. A windowed channel's window is
    /// opened only by a push someone receives; when another push holds it open, only the members
    /// who have just read the channel receive this one.
    private func decide(
        _ page: [PushCandidate], _ messages: [Int64: PushMessage], _ windows: inout WindowDecisions, now: Int64
    ) async throws -> [PushCandidate] {
        var recipients: [PushCandidate] = []
        for candidate in page {
            let stored = messages[candidate.messageID]!
            let message = PushAudience.Message(
                senderID: stored.message.sender?.userID, isRemoved: stored.message.isRemoved, isSupergroup: stored.isSuper,
                memberCount: stored.joinedMemberCount)
            var audience = candidate.audience
            audience.isMentioned = stored.message.mentions(audience.userID)
            // Hidden from them (they block the sender of a 1-to-1 message): never theirs to see.
            guard stored.message.hiddenFrom != audience.userID else { continue }
            guard message.isWindowed else {
                if PushAudience.receives(audience, message, windowOpen: true, now: now) { recipients.append(candidate) }
                continue
            }
            // Whether this message holds the window is settled once, by its first recipient.
            guard PushAudience.receives(audience, message, windowOpen: true, now: now) else { continue }
            if windows.opened[candidate.messageID] == nil {
                let channelURL = stored.message.channelURL
                windows.opened[candidate.messageID] = try await store.transaction {
                    try $0.pushQueue.openWindow(channelURL, now: now, window: PushAudience.supergroupWindowMillis)
                }
            }
            if windows.opened[candidate.messageID]! || PushAudience.receives(audience, message, windowOpen: false, now: now) {
                recipients.append(candidate)
            }
        }
        return recipients
    }

    private struct WindowDecisions {
        /// Per windowed message: whether its push opened the window.
        var opened: [Int64: Bool] = [:]
    }

    /// The recipient's pushes, one per device of a configured provider (for a retry, only the
    /// retried devices).
    private func devicePushes(_ candidate: PushCandidate, _ stored: PushMessage, claim: ClaimedPush, templates: [PushTemplate])
        -> [(DevicePush, any PushProvider)]
    {
        let preference = candidate.audience.preference
        let template = templates.first { $0.name == preference.template } ?? templates.first ?? PushDispatcher.fallbackTemplate
        let ownSound = preference.template == .alternative ? preference.alternativeSound : preference.sound
        let fileURL = stored.message.file?.fileID.map { fileID in
            let plain = FileURLs.plain(baseURL: files.baseURL, fileID: fileID)
            guard stored.message.file?.requireAuth == true else { return plain }
            let key = files.keys.issue(userID: candidate.audience.userID, generation: candidate.fileKeyGeneration, now: clock.nowMillis)
            return FileURLs.authorized(plain, auth: key.auth)
        }
        let notice = PushNotice(
            message: stored.message,
            channel: PushNotice.Channel(
                url: stored.message.channelURL, name: stored.channelName, customType: stored.channelCustomType,
                memberCount: stored.joinedMemberCount),
            recipient: PushNotice.Recipient(
                userID: candidate.audience.userID, nickname: candidate.nickname, unreadMessageCount: candidate.unreadMessageCount,
                template: template,
                sound: candidate.channelSound.isEmpty ? ownSound : candidate.channelSound, fileURL: fileURL),
            appID: appID)
        let expiresAt = (claim.createdAt + settings.deliveryLimit.milliseconds) / 1000
        // A retry's read returned only the retried devices.
        return candidate.tokens.compactMap { token in
            providers.byType[token.type].map { (DevicePush(token: token, notice: notice, expiresAt: expiresAt), $0) }
        }
    }

    /// Used only if the templates' table were empty (the migration seeds it).
    static let fallbackTemplate = PushTemplate(
        name: .default, userMessage: "{sender_name}: {message}", fileMessage: "{sender_name}: {filename}", adminMessage: "{message}")

    private struct Sent {
        let push: DevicePush
        let claim: ClaimedPush
        let outcome: PushOutcome
        let answeredAt: Int64
    }

    /// Counts the outcomes and turns them into what the round writes back.
    private func record(_ sent: [Sent], into outcome: inout PushRoundOutcome, now: Int64) {
        for item in sent {
            let provider = item.push.token.type
            switch item.outcome {
            case .delivered:
                PushMetrics.sent[provider]?.increment()
                PushMetrics.latency[provider]?.recordMilliseconds(item.answeredAt - item.claim.createdAt)
            case .deadToken:
                PushMetrics.tokensRemoved[provider]?.increment()
                outcome.deadTokens.append(item.push.token)
            case .failed(let reason):
                PushMetrics.failed(provider, reason).increment()
            case .retry(let after, let reason):
                PushMetrics.failed(provider, reason).increment()
                let attempts =
                    1 + (item.claim.devices?.first { $0.key == item.push.token.type.rawValue + ":" + item.push.token.token }?.attempts ?? 0)
                let retryAt = now + settings.backoff.delay(afterAttempts: attempts, retryAfter: after).milliseconds
                // Past the limit a retry would only be dropped: it is not written.
                guard retryAt < item.claim.createdAt + settings.deliveryLimit.milliseconds else { continue }
                outcome.retries.append(
                    PushRoundOutcome.Retry(
                        messageID: item.claim.messageID, type: provider.rawValue, token: item.push.token.token,
                        createdAt: item.claim.createdAt,
                        attempts: attempts, nextAttemptAt: retryAt))
            }
        }
    }
}
