import ParleyCore
import ParleyStore

/// The event stream's sockets coming and going (API.md §6.1, §6.5).
extension Realtime {
    /// Opens a stream for the user: registers the socket (closing the user's oldest beyond the
    /// cap, on any instance), then sends `sink` the hello and the replay after `after` (or
    /// `resync_required`) ahead of the live events.
    public func connect(userID: String, after: Int64?, sink: any DeliverySink) async throws -> EventSubscription {
        let subscription = EventSubscription(
            socketID: instanceID + "-" + SecretHashing.randomHex(bytes: 8), userID: userID, holdLimit: settings.socketQueueLimit,
            sink: sink
        )
        let (instanceID, now, cap) = (instanceID, clock.nowMillis, settings.socketsPerUser)
        let surplus = try await store.transaction { repositories in
            let surplus = try repositories.presence.connected(
                socketID: subscription.socketID, userID: userID, instanceID: instanceID, now: now, cap: cap
            )
            for socketID in surplus { try repositories.events.notify(EventRepository.socketsChannel, socketID) }
            return surplus
        }
        // Those on this instance close now, without waiting for the notification (which an
        // instance whose LISTEN is still connecting would miss); the others on theirs.
        for socketID in surplus { closeSurplus(socketID) }
        let position = try await hub.register(subscription)
        refreshPresenceStatisticsIfDue()
        do {
            let replay = try await replay(for: userID, after: after, through: position)
            let resync = replay.contains { if case .resyncRequired = $0 { true } else { false } }
            // A client that has events beyond what this instance delivered so far must not get
            // them twice; one told to resync has no position here (an unknown `after` would
            // otherwise hide everything up to it).
            if let after, !resync { subscription.skip(through: after) }
            let hello = StreamHello(
                connectionID: subscription.socketID, lastEventID: resync ? position : max(position, after ?? 0),
                serverTime: clock.nowMillis, pingIntervalMillis: settings.pingInterval.milliseconds
            )
            subscription.start(hello, replay: replay)
        } catch {
            await disconnect(subscription)
            throw error
        }
        return subscription
    }

    /// Closes a socket beyond its user's cap, if this instance holds it.
    func closeSurplus(_ socketID: String) {
        hub.subscription(socketID)?.deliver(.close(code: StreamCloseCode.tooManySockets, reason: "Too many sockets"))
    }

    /// The socket closed: the user may be offline now (then their typing ends everywhere, and
    /// they exit the open channels no REST enter holds them in).
    public func disconnect(_ subscription: EventSubscription) async {
        hub.unregister(subscription)
        subscription.finish()
        await closedSockets.record(subscription.socketID)
        refreshPresenceStatisticsIfDue()
    }

    /// Analyzes `event_sockets` when this instance's sockets have doubled or halved (see
    /// `PresenceStatistics`); in the background, never holding up a socket.
    func refreshPresenceStatisticsIfDue() {
        guard presenceStatistics.refreshIsDue(count: hub.socketCount) else { return }
        tasks.spawn("analyzing event_sockets") { [self] in
            defer { presenceStatistics.finished() }
            try await store.transaction { try $0.presence.analyze() }
        }
    }
}
