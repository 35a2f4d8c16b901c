import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Parley server, as one signed-in user sees it: REST calls as that user, and the event stream
/// that tells what happens in their channels.
///
/// ```swift
/// let parley = ParleyClient(baseURL: URL(string: "https://chat.example.com")!)
/// let me = try await parley.connect(userId: "alice", sessionToken: token)
/// parley.addChannelDelegate(self, identifier: "chat-screen")
/// let channel = try await parley.groupChannels.create(.init(userIds: ["alice", "bob"], isDistinct: true))
/// try await parley.messages.sendUserMessage(channel.channelURL, .init(message: "Hello Bob"))
/// ```
public final class ParleyClient: Sendable {
    public let baseURL: URL
    let urlSession: URLSession
    let settings: ConnectionSettings
    let transport: any WebSocketTransport
    let dispatcher = EventDispatcher()
    private let session = SessionBox()

    public init(baseURL: URL, urlSession: URLSession = .shared, settings: ConnectionSettings = .init()) {
        self.baseURL = baseURL
        self.urlSession = urlSession
        self.settings = settings
        self.transport = WebSocketTransports.platformDefault()
    }

    /// Signs `userId` in with a session token (from the app's backend), opens the event stream and
    /// returns once it is open, with the user. `tokenProvider` is asked for a new token whenever
    /// the server refuses the current one (expired, revoked); without one, that ends the session.
    @discardableResult
    public func connect(userId: String, sessionToken: String, tokenProvider: SessionTokenProvider? = nil) async throws -> User {
        await disconnect()
        let credentials = SessionCredentials(userId: userId, token: sessionToken, provider: tokenProvider)
        let rest = RESTClient(baseURL: baseURL, urlSession: urlSession, credentials: credentials)
        let user = try await rest.call("GET", "/v3/users/\(RESTClient.segment(userId))", as: User.self)
        // The same user again (the app came back): the stream resumes after the last event handled.
        let connection = EventConnection(
            eventsURL: Self.eventsURL(baseURL), credentials: credentials, transport: transport, dispatcher: dispatcher, rest: rest,
            settings: settings, resumeFrom: session.resumePosition(for: userId))
        session.set(Session(credentials: credentials, rest: rest, connection: connection))
        // The stream's first state is this connection's, not how the last one ended.
        dispatcher.dispatch(state: .connecting, userId: userId)
        let states = dispatcher.states()
        await connection.start()
        let timeout = settings.connectTimeout
        let opened = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in states {
                    if state == .open { return true }
                    if case .closed(let reason) = state, reason != .requested { return false }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard opened else {
            await disconnect()
            throw ParleyKitError(code: 0, status: 0, message: "The event stream did not open within \(timeout) s.")
        }
        return user
    }

    /// Closes the event stream and forgets the session.
    public func disconnect() async {
        guard let current = session.take() else { return }
        await current.connection.stop()
        session.keep(await current.connection.position, for: current.credentials.userId)
    }

    /// The signed-in user's id; nil before `connect`.
    public var currentUserId: String? { session.get()?.credentials.userId }

    /// Sets (or removes) the provider of new session tokens.
    public func setTokenProvider(_ provider: SessionTokenProvider?) async {
        await session.get()?.credentials.setProvider(provider)
    }

    public var connectionState: ConnectionState { dispatcher.state }

    /// The connection's states, the current one first.
    public func connectionStates() -> AsyncStream<ConnectionState> { dispatcher.states() }

    /// Every frame of the event stream from now on, in order (events each once).
    public func events() -> AsyncStream<ParleyEvent> { dispatcher.events() }

    /// Adds a delegate (held weakly) under `identifier`, replacing one added under it before.
    public func addChannelDelegate(_ delegate: any ChannelDelegate, identifier: String) {
        dispatcher.add(delegate, identifier: identifier)
    }

    public func addConnectionDelegate(_ delegate: any ConnectionDelegate, identifier: String) {
        dispatcher.add(delegate, identifier: identifier)
    }

    public func removeDelegate(identifier: String) {
        dispatcher.removeDelegate(identifier: identifier)
    }

    /// The REST client of the signed-in session (`notConnected` before `connect`).
    func rest() throws -> RESTClient {
        guard let current = session.get() else { throw ParleyKitError.notConnected }
        return current.rest
    }

    func connection() throws -> EventConnection {
        guard let current = session.get() else { throw ParleyKitError.notConnected }
        return current.connection
    }

    static func eventsURL(_ baseURL: URL) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + "/v3/events"
        return components.url!
    }
}

struct Session: Sendable {
    let credentials: SessionCredentials
    let rest: RESTClient
    let connection: EventConnection
}

/// The current session, swapped by connect and disconnect.
final class SessionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var session: Session?
    private var resume: (userId: String, position: StreamPosition)?

    func get() -> Session? { lock.withLock { session } }
    func keep(_ position: StreamPosition, for userId: String) { lock.withLock { resume = (userId, position) } }
    func resumePosition(for userId: String) -> StreamPosition? {
        lock.withLock { resume?.userId == userId ? resume?.position : nil }
    }
    func set(_ new: Session) { lock.withLock { session = new } }
    func take() -> Session? {
        lock.withLock {
            defer { session = nil }
            return session
        }
    }
}
