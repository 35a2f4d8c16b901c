/// How long a connection may take over each part of a request (issue 10.3: slowloris).
public struct HTTPTimeouts: Sendable, Equatable {
    /// From the first byte of a request to the end of its header.
    public var header: Duration = .seconds(30)
    /// The longest pause between two pieces of a request body.
    public var bodyProgress: Duration = .seconds(30)
    /// A keep-alive connection with no request in progress. Longer than a reverse proxy's own
    /// upstream keep-alive (nginx: 60 s), so that the proxy, not Parley, closes idle connections.
    public var idle: Duration = .seconds(75)
    /// After answering a request whose body was not read (413, 401 before an upload), how long
    /// the rest of the body is read and dropped before the connection closes, so that the client
    /// sees the answer rather than a reset.
    public var linger: Duration = .seconds(2)

    public init() {}
}
