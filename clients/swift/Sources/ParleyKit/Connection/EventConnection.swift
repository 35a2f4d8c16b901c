import Foundation

/// The event stream of docs/EVENTS.md, kept open: connects with the session token in a header,
/// reconnects after any drop with `after` (full-jitter backoff, 1 s doubling to 30 s), skips what
/// it has handled, renews a refused token (4001) through the app's provider, stops on 4008, and
/// after `resync_required` catches up over the channel changelog. Frames go to the dispatcher
/// one at a time, in order.
actor EventConnection {
    let eventsURL: URL
    let credentials: SessionCredentials
    let transport: any WebSocketTransport
    let dispatcher: EventDispatcher
    let rest: RESTClient
    let settings: ConnectionSettings

    /// The last event handled: the stream resumes after it.
    private(set) var cursor: Int64?
    /// When the last handled event happened (ms, the server's clock): a catch-up starts there.
    private var lastEventTS: Int64?
    private var helloLastEventID: Int64?
    private var loop: Task<Void, Never>?
    private var sender: (any WebSocketSending)?
    /// The wait before the next reconnection, cut short when the network comes back.
    private let backoff = BackoffWait()
    /// Tokens refused one after the other without the stream opening in between.
    private var refusedInARow = 0
    /// Whether the stream has been open before: the next `hello` is a reconnection.
    private var hasOpened = false
    /// The open channels the user entered on this connection: entered again after a
    /// reconnection, since a participation lapses 30 s after the user's last socket closed.
    private var enteredOpenChannels: Set<String> = []
    #if canImport(Network)
        private var reachability: ReachabilityMonitor?
    #endif

    init(
        eventsURL: URL, credentials: SessionCredentials, transport: any WebSocketTransport, dispatcher: EventDispatcher,
        rest: RESTClient, settings: ConnectionSettings, resumeFrom position: StreamPosition?
    ) {
        cursor = position?.cursor
        lastEventTS = position?.lastEventTS
        self.eventsURL = eventsURL
        self.credentials = credentials
        self.transport = transport
        self.dispatcher = dispatcher
        self.rest = rest
        self.settings = settings
    }

    /// Where the stream is: a later connection of the same user resumes there.
    var position: StreamPosition { StreamPosition(cursor: cursor, lastEventTS: lastEventTS) }

    func start() {
        guard loop == nil else { return }
        loop = Task { await self.run() }
        #if canImport(Network)
            reachability = ReachabilityMonitor { [backoff] in backoff.cut() }
        #endif
    }

    /// The network is usable again: a reconnection waiting out its backoff tries now, and the
    /// backoff starts over.
    nonisolated func networkBecameAvailable() {
        backoff.cut()
    }

    func stop() async {
        #if canImport(Network)
            reachability = nil
        #endif
        loop?.cancel()
        await sender?.close()
        sender = nil
        await loop?.value
        loop = nil
    }

    func noteEntered(_ channelURL: String, _ entered: Bool) {
        if entered {
            enteredOpenChannels.insert(channelURL)
        } else {
            enteredOpenChannels.remove(channelURL)
        }
    }

    /// Sends a client frame (typing, enter, exit) on the open socket.
    func send(_ frame: [String: String]) async throws {
        guard let sender else { throw ParleyKitError(code: 0, status: 0, message: "The event stream is not open.") }
        let data = try JSONSerialization.data(withJSONObject: frame, options: [.sortedKeys])
        try await sender.send(String(decoding: data, as: UTF8.self))
    }

    private func run() async {
        let userId = credentials.userId
        var delay = settings.initialBackoff
        var attempt = 0
        while !Task.isCancelled {
            dispatcher.dispatch(state: attempt == 0 ? .connecting : .reconnecting(attempt: attempt), userId: userId)
            let token = await credentials.token
            let openedAt = Date()
            let code = await connectOnce(token: token)
            sender = nil
            if Task.isCancelled { break }
            switch code {
            case 4001:
                // A provider whose fresh tokens are refused as well would be asked forever.
                refusedInARow += 1
                guard refusedInARow <= 3, (try? await credentials.renew(refused: token)) != nil else {
                    dispatcher.dispatch(state: .closed(.unauthorized), userId: userId)
                    return
                }
                attempt += 1
                continue
            case 4008:
                dispatcher.dispatch(state: .closed(.replacedByNewerConnection), userId: userId)
                return
            case 4009:
                attempt += 1
                continue
            default:
                if Date().timeIntervalSince(openedAt) > settings.stableAfter { delay = settings.initialBackoff }
                attempt += 1
                dispatcher.dispatch(state: .reconnecting(attempt: attempt), userId: userId)
                let networkCameBack = await backoff.wait(seconds: Double.random(in: 0...delay))
                delay = networkCameBack ? settings.initialBackoff : min(delay * 2, settings.maximumBackoff)
            }
        }
        dispatcher.dispatch(state: .closed(.requested), userId: userId)
    }

    /// One connection, until it ends; its close code.
    private func connectOnce(token: String) async -> Int? {
        var components = URLComponents(url: eventsURL, resolvingAgainstBaseURL: false)!
        if let cursor { components.queryItems = [URLQueryItem(name: "after", value: String(cursor))] }
        do {
            return try await transport.run(
                url: components.url!, headers: ["Session-Token": token], pingInterval: settings.pingInterval,
                opened: { sender in await self.opened(sender) },
                received: { text in await self.handle(text) })
        } catch {
            return nil
        }
    }

    private func opened(_ sender: any WebSocketSending) {
        self.sender = sender
    }

    private func handle(_ text: String) async {
        guard let event = ParleyEvent.parse(text) else { return }
        switch event.type {
        case "hello":
            helloLastEventID = event.lastEventId
            if cursor == nil { cursor = helloLastEventID }
            refusedInARow = 0
            dispatcher.dispatch(state: .open, userId: credentials.userId)
            if hasOpened { await reopened() }
            hasOpened = true
        case "resync_required":
            cursor = helloLastEventID
            await resync()
        default:
            if let id = event.eventId {
                guard id > (cursor ?? 0) else { return }
                dispatcher.dispatch(event)
                cursor = id
                lastEventTS = event.ts ?? lastEventTS
            } else {
                dispatcher.dispatch(event)
            }
        }
    }

    /// Back after a drop: enters the open channels again (a refusal, such as a ban meanwhile,
    /// comes as an `error` frame), then tells the streams, so that an open channel's collection
    /// reads what it missed while not a participant (the server keeps no open-channel changelog).
    private func reopened() async {
        for channelURL in enteredOpenChannels.sorted() {
            try? await send(["type": "enter", "channel_url": channelURL])
        }
        dispatcher.dispatch(ParleyEvent.local("reconnected"))
    }

    /// What the server could not replay, from the channel changelog (EVENTS.md §11).
    private func resync() async {
        let since = lastEventTS ?? Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000
        var updated: [GroupChannel] = []
        var deleted: [String] = []
        var token: String?
        let path = "/v3/users/\(RESTClient.segment(credentials.userId))/my_group_channels/changelogs"
        for _ in 0..<100 {
            let query = token.map { [URLQueryItem(name: "token", value: $0)] } ?? [URLQueryItem(name: "change_ts", value: String(since))]
            guard let page = try? await rest.call("GET", path, query: query, as: ChannelChangelog.self) else { break }
            updated += page.updated
            deleted += page.deleted
            token = page.next
            if !page.hasMore { break }
        }
        dispatcher.dispatch(resync: ChannelChanges(updated: updated, deleted: deleted))
        // Then to the streams (and `didReceive`): a message collection catches its channel up.
        dispatcher.dispatch(ParleyEvent.local("resync_required"))
    }
}

/// The last event handled and when it happened.
struct StreamPosition: Sendable {
    let cursor: Int64?
    let lastEventTS: Int64?
}

struct ChannelChangelog: Decodable {
    let updated: [GroupChannel]
    let deleted: [String]
    let hasMore: Bool
    let next: String?
}

/// How the event stream reconnects (EVENTS.md §8); the defaults are the protocol's.
public struct ConnectionSettings: Sendable {
    /// The first reconnection waits up to this long (seconds), doubling to `maximumBackoff`.
    public var initialBackoff: Double = 1
    public var maximumBackoff: Double = 30
    /// A connection up this long resets the backoff.
    public var stableAfter: Double = 10
    /// ParleyKit pings the server this often (seconds); a connection whose pong does not come
    /// back before the next ping is taken for dead and replaced (a dead network, a stuck proxy).
    public var pingInterval: Double = 30
    /// `connect` gives up when the stream has not opened this long after it was called (seconds).
    public var connectTimeout: Double = 15

    public init() {}
}
