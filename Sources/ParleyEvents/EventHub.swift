import Foundation
import Logging
import OwnedTasks
import ParleyCore
import ParleyStore
import Synchronization

/// One instance's fan-out: reads the event log when woken (NOTIFY, or the fallback timer), puts
/// the events in id order (`EventSequencer`), and hands each to the local subscriptions of its
/// recipients, decided by the channel's membership when it is delivered.
final class EventHub: Sendable {
    let store: Store
    let settings: EventSettings
    let logger: Logger
    let clock: Clock
    let members = MemberCache()
    let state: Mutex<HubState>
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    struct HubState {
        var isReady = false
        var deliveredThrough: Int64 = 0
        var subscriptions: [String: [String: EventSubscription]] = [:]
        /// Whose socket each is, to find one by its id.
        var socketOwners: [String: String] = [:]
        var subscriptionCount = 0
        var typing: TypingStates
        /// Unread counts moved since the last `unread_count_changed` went out, and when the next go.
        var unread: UnreadCadence
        var throttle: SmartThrottle
    }

    /// Runs the delayed wake-ups (a gap's second look, the unread counts' next round).
    let tasks: TaskOwner

    init(store: Store, settings: EventSettings, clock: Clock, logger: Logger, tasks: TaskOwner) {
        self.tasks = tasks
        self.store = store
        self.clock = clock
        self.settings = settings
        self.logger = logger
        self.state = Mutex(
            HubState(
                typing: TypingStates(expiry: settings.typingExpiry, throttle: settings.typingThrottle),
                unread: UnreadCadence(interval: settings.unreadInterval),
                throttle: SmartThrottle(limit: settings.openChannelMessagesPerSecond)))
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Something may have been committed: look soon.
    func poke() {
        wake.yield()
    }

    /// The local subscriptions of `userID`.
    func subscriptions(of userID: String) -> [EventSubscription] {
        state.withLock { Array(($0.subscriptions[userID] ?? [:]).values) }
    }

    func subscription(_ socketID: String) -> EventSubscription? {
        state.withLock { state in state.socketOwners[socketID].flatMap { state.subscriptions[$0]?[socketID] } }
    }

    /// The local sockets and their users, for the presence rows that must match them.
    var sockets: [(socketID: String, userID: String)] {
        state.withLock { state in state.socketOwners.map { ($0.key, $0.value) } }
    }

    var socketCount: Int {
        state.withLock { $0.subscriptionCount }
    }

    var localUserIDs: Set<String> {
        state.withLock { Set($0.subscriptions.keys) }
    }

    /// Adds a subscription; it receives every event after the returned id (its replay covers
    /// what comes before). Waits until the hub has found its starting point.
    func register(_ subscription: EventSubscription) async throws -> Int64 {
        while true {
            let position: Int64? = state.withLock { state in
                guard state.isReady else { return nil }
                state.subscriptions[subscription.userID, default: [:]][subscription.socketID] = subscription
                state.socketOwners[subscription.socketID] = subscription.userID
                state.subscriptionCount += 1
                EventMetrics.openSockets.increment()
                return state.deliveredThrough
            }
            if let position { return position }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func unregister(_ subscription: EventSubscription) {
        state.withLock { state in
            guard state.subscriptions[subscription.userID]?.removeValue(forKey: subscription.socketID) != nil else { return }
            if state.subscriptions[subscription.userID]?.isEmpty == true { state.subscriptions[subscription.userID] = nil }
            state.socketOwners[subscription.socketID] = nil
            state.subscriptionCount -= 1
            EventMetrics.openSockets.decrement()
        }
    }

    /// Reads and delivers until stopped. The starting point is the newest id once every
    /// transaction that might still commit a smaller one has ended.
    func run() async throws {
        var sequencer = EventSequencer(startingAfter: try await retrying { try await self.startingPoint() })
        state.withLock { state in
            state.deliveredThrough = sequencer.deliveredThrough
            state.isReady = true
        }
        var failures = 0
        for await _ in wakes {
            do {
                // A page at a time until caught up. A gap normally fills with its transaction's
                // commit, whose NOTIFY wakes this loop again; one whose transaction rolled back
                // is noticed by the look that follows shortly after (or the fallback poll).
                var more = true
                while more {
                    more = try await poll(&sequencer)
                }
                if sequencer.hasGaps { schedulePoke(after: Self.gapRecheck) }
                if failures > 0 { logger.notice("reading the event log works again", metadata: ["failures": "\(failures)"]) }
                failures = 0
            } catch {
                // While the database is away every wake fails: back off (200 ms doubling to 3.2 s;
                // NOTIFY cannot arrive meanwhile, its connection is down too) and log the first
                // failure and then every tenth, not one line per wake.
                if failures % 10 == 0 {
                    logger.warning("reading the event log failed", metadata: ["error": "\(error)", "failures": "\(failures + 1)"])
                }
                failures += 1
                if Task.isCancelled { return }
                try? await Task.sleep(for: .milliseconds(200 << min(failures - 1, 4)))
                poke()
            }
        }
    }

    /// A rolled-back transaction leaves a gap that no NOTIFY fills: how soon to look again.
    /// Not sooner: every instance looks, and under load some gap is almost always open.
    static let gapRecheck = Duration.milliseconds(100)

    /// Runs `body` until it succeeds (the database may be down for a while) or the task is
    /// cancelled.
    private func retrying<T>(_ body: () async throws -> T) async throws -> T {
        while true {
            do {
                return try await body()
            } catch let error where !(error is CancellationError) {
                logger.warning("reading the event log failed", metadata: ["error": "\(error)"])
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    private func schedulePoke(after delay: Duration) {
        tasks.spawn("the event hub's second look at a gap") { [self] in
            try await Task.sleep(for: delay)
            poke()
        }
    }

    private func startingPoint() async throws -> Int64 {
        let (last, running) = try await store.read { repositories in
            let last = try repositories.events.lastID()
            return (last, try repositories.events.producers())
        }
        var waitingFor = running
        while !waitingFor.isEmpty {
            try await Task.sleep(for: .milliseconds(2))
            waitingFor.formIntersection(try await store.read { try $0.events.producers() })
        }
        return last
    }

    static let pageSize = 500

    /// One read; true when there may be more right away.
    private func poll(_ sequencer: inout EventSequencer) async throws -> Bool {
        let after = sequencer.deliveredThrough
        let missing = sequencer.missingIDs
        let hasGaps = sequencer.hasGaps
        let (running, events) = try await store.read { repositories in
            // The producers first: a transaction not among them had ended before the read.
            let running = hasGaps ? try repositories.events.producers() : []
            return (running, try repositories.events.page(after: after, missing: missing, limit: Self.pageSize))
        }
        if hasGaps { sequencer.observe(producers: running) }
        let ready = sequencer.absorb(events.filter { $0.eventID > after })
        try await dispatch(ready, through: sequencer.deliveredThrough)
        return events.count == Self.pageSize
    }

    /// Hands the events to the local subscriptions of their recipients (`dispatch` traces it).
    func dispatchBatch(_ events: [Event], through position: Int64) async throws {
        let local = localUserIDs
        var recipients: [String: [ChannelRecipient]] = [:]
        var blockers: [String: Set<String>] = [:]
        if !local.isEmpty {
            let channels = Array(Set(events.compactMap { $0.audience == .users ? nil : $0.channelURL }))
            let senders = Array(Set(events.compactMap(\.messageSenderID)))
            // The sequencer has moved past these events: this read must not fail them away.
            if !channels.isEmpty || !senders.isEmpty {
                (recipients, blockers) = try await retrying {
                    try await self.store.read { repositories in
                        (try self.members.members(of: channels, repositories), try repositories.blocks.blockers(of: senders))
                    }
                }
            }
        }
        // Throttling is about the live stream's pace, so it counts real seconds (not the
        // configured clock, which tests set by hand).
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let unreadDelay = state.withLock { state -> Duration? in
            for event in events {
                guard !state.subscriptions.isEmpty else { break }
                let delivery: Delivery = event.type == .sessionEnded ? .checkSession : .event(SharedEvent(event))
                // Those who block the sender get the message marked so (`is_blocked_by_me`), in a frame of their own.
                let senderBlockers = event.messageSenderID.flatMap { blockers[$0] } ?? []
                let blockerDelivery: Delivery? = senderBlockers.isEmpty ? nil : .event(SharedEvent(event.seen(blockingSender: true)))
                let unreadMove = UnreadMove(event)
                for userID in Self.recipients(of: event, members: recipients[event.channelURL ?? ""] ?? [], among: state.subscriptions) {
                    guard state.throttle.admits(event, to: userID, nowMillis: now) else {
                        EventMetrics.throttled.increment()
                        continue
                    }
                    let delivery = senderBlockers.contains(userID) ? blockerDelivery ?? delivery : delivery
                    state.subscriptions[userID]?.values.forEach { $0.deliver(delivery) }
                    state.unread.note(unreadMove, for: userID)
                }
            }
            state.deliveredThrough = position
            return state.unread.nextRound(now: .now)
        }
        if let unreadDelay { scheduleUnreadCounts(after: unreadDelay) }
        // A message ends its sender's typing in that channel.
        let ended = state.withLock { state in
            events.compactMap { event -> TypingChange? in
                guard event.type == .messageReceived, let channelURL = event.channelURL, case .message(let message) = event.payload,
                    let sender = message.sender
                else { return nil }
                return state.typing.ended(.init(channelURL: channelURL, userID: sender.userID), ts: message.createdAt)
            }
        }
        try await deliverTyping(ended)
    }
}
