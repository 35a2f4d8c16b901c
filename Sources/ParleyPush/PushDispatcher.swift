import Logging
import ParleyCore
import ParleyFiles
import ParleyStore
import ServiceLifecycle
import Traced

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
        PushMetrics.prepare()
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
                                // A span of the traced send that queued it, when there was one.
                                let outcome = await Traced.root(
                                    "push.send", parent: TraceParent.context(claim.traceParent), ofKind: .producer
                                ) {
                                    _ in await provider.send(push)
                                }
                                return Sent(push: push, claim: claim, outcome: outcome, answeredAt: self.clock.nowMillis)
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
}
