import Foundation
import Logging
import OwnedTasks
import ParleyCore
import ParleyStore
import Postgres
import ServiceLifecycle

/// The realtime side of one instance (API.md §6): the event stream's connections, presence and
/// typing. As a lifecycle `Service` it listens for notifications, reads the event log, beats the
/// instance's heart, ends typing, and applies retention.
public final class Realtime: Service, Sendable {
    public let settings: EventSettings
    let store: Store
    let clock: Clock
    let logger: Logger
    let hub: EventHub
    let listener: PostgresListener
    /// Ends open-channel participations once no socket or REST enter holds them.
    let participation: any ParticipationSweep
    /// This process, in `event_instances` and socket ids.
    public let instanceID: String
    let closedSockets: ClosedSocketRecorder
    let presenceStatistics = PresenceStatistics()
    /// Runs work that outlives a call (a socket's close recorded, statistics refreshed); also
    /// lent to the event stream's sockets.
    public let tasks: TaskOwner

    public init(
        store: Store, conninfo: String, settings: EventSettings, participation: any ParticipationSweep, clock: Clock, logger: Logger,
        tasks: TaskOwner
    ) {
        self.tasks = tasks
        self.store = store
        self.participation = participation
        self.settings = settings
        self.clock = clock
        self.logger = logger
        self.instanceID = SecretHashing.randomHex(bytes: 8)
        self.hub = EventHub(store: store, settings: settings, clock: clock, logger: logger, tasks: tasks)
        self.closedSockets = ClosedSocketRecorder(
            store: store, clock: clock, logger: logger, tasks: tasks,
            // The user's last socket: the open channels it held them in are left now.
            offline: { users, repositories in if !users.isEmpty { try participation.endLapsed(userIDs: users, repositories) } },
            announce: { [store] users in try await Self.announceOffline(users, store) }
        )
        self.listener = PostgresListener(
            conninfo: conninfo, channels: [EventRepository.notifyChannel, EventRepository.typingChannel, EventRepository.socketsChannel],
            logger: logger
        )
    }

    public func run() async throws {
        EventMetrics.prepare()
        // The database may be down at start: the server still starts (and answers 503), and
        // every loop below keeps trying.
        await beat()
        listener.start()
        defer { listener.stop() }
        // Every loop below runs until cancelled; graceful shutdown cancels them.
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { try await self.hub.run() }
                    group.addTask { await self.listen() }
                    group.addTask { try await self.every(self.settings.fallbackPollInterval) { self.hub.poke() } }
                    group.addTask { try await self.every(self.settings.heartbeatInterval) { await self.beat() } }
                    group.addTask { try await self.every(.seconds(1)) { try? await self.hub.expireTyping(ts: self.clock.nowMillis) } }
                    group.addTask { try await self.every(.seconds(60)) { await self.applyRetention() } }
                }
            }
        } catch is CancellationError {}
        await removeInstance()
    }

    /// On the way out: this instance's sockets close, and its users who are online nowhere
    /// else stop typing everywhere.
    private func removeInstance() async {
        let (instanceID, now, participation) = (instanceID, clock.nowMillis, participation)
        do {
            let offline = try await store.transaction { repositories in
                let offline = try repositories.presence.remove(instanceID, now: now)
                try participation.endLapsed(userIDs: offline, repositories)
                return offline
            }
            try await Self.announceOffline(offline, store)
        } catch {
            logger.warning("removing the instance failed", metadata: ["error": "\(error)"])
        }
    }

    /// Runs `body` every `interval` until the task is cancelled.
    private func every(_ interval: Duration, _ body: @Sendable () async -> Void) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            await body()
        }
    }

    private func listen() async {
        for await notice in listener.notices {
            switch notice {
            case .reconnected: hub.poke()
            case .notification(EventRepository.notifyChannel, _): hub.poke()
            case .notification(EventRepository.typingChannel, let payload):
                guard let typing = try? JSONDecoder().decode(TypingNotice.self, from: Data(payload.utf8)) else { continue }
                do { try await hub.received(typing, ts: clock.nowMillis) } catch { logger.warning("typing delivery failed: \(error)") }
            case .notification(EventRepository.socketsChannel, let socketID):
                closeSurplus(socketID)
            case .notification: break
            }
        }
    }

    private func beat() async {
        do {
            let instanceID = instanceID
            let deadAfter = settings.instanceDeadAfter.milliseconds
            let (live, now) = (hub.sockets, clock.nowMillis)
            let offline = try await store.transaction { repositories in
                // An instance the others took for dead (it stalled past the limit) comes back with
                // its live sockets, which their reaping had removed.
                if try repositories.presence.beat(instanceID, deadAfterMillis: deadAfter) {
                    try repositories.presence.restore(instanceID, sockets: live, now: now)
                }
                let dead = try repositories.presence.reapDead()
                let closed = try repositories.presence.reconcile(
                    instanceID, liveSocketIDs: live.map(\.socketID), now: now, graceMillis: deadAfter)
                return dead + closed
            }
            try await Self.announceOffline(offline, store)
        } catch {
            logger.warning("instance heartbeat failed", metadata: ["error": "\(error)"])
        }
        await sweepParticipations()
    }

    /// Every instance sweeps after its heartbeat: participations of users gone with a dead
    /// instance, and REST enters that were not renewed, end here. A transaction of its own, so
    /// the heartbeat never waits for a channel's lock.
    private func sweepParticipations() async {
        let participation = participation
        do {
            try await store.transaction { try participation.endLapsed(userIDs: nil, $0) }
        } catch {
            logger.warning("ending lapsed participations failed", metadata: ["error": "\(error)"])
        }
    }

    private func applyRetention() async {
        let age = settings.retentionMillis
        do {
            _ = try await store.transaction { try $0.events.purge(olderThanMillis: age) }
        } catch {
            logger.warning("event retention failed", metadata: ["error": "\(error)"])
        }
    }

    /// Their typing ends everywhere.
    private static func announceOffline(_ userIDs: [String], _ store: Store) async throws {
        guard !userIDs.isEmpty else { return }
        let payloads = try userIDs.map { try json(TypingNotice(offlineUserID: $0)) }
        try await store.transaction { repositories in
            for payload in payloads { try repositories.events.notify(EventRepository.typingChannel, payload) }
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

/// What the server's first frame says (API.md §6.1).
public struct StreamHello: Sendable {
    public let connectionID: String
    public let lastEventID: Int64
    public let serverTime: Int64
    public let pingIntervalMillis: Int64
}
