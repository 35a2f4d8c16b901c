/// The event stream's state, as `ParleyClient.connectionStates` tells it.
public enum ConnectionState: Sendable, Equatable {
    case connecting
    case open
    /// The connection dropped; ParleyKit reconnects by itself (this is attempt `attempt`).
    case reconnecting(attempt: Int)
    case closed(DisconnectReason)
}

/// Why the event stream stopped for good (ParleyKit does not reconnect by itself after these).
public enum DisconnectReason: Sendable, Equatable {
    /// `disconnect()` was called.
    case requested
    /// The session token was refused and the token provider gave none (close 4001).
    case unauthorized
    /// The user opened more sockets than allowed and this was the oldest (close 4008).
    case replacedByNewerConnection
}
