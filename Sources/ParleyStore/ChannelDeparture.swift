/// Takes a user out of every channel inside the caller's transaction (deactivation, deletion).
///
/// The user services need it, but the rules of leaving (distinctness ends, counts are redone,
/// and soon events) belong to the chat services, which implement it; the container connects
/// the two, so that neither target imports the other.
public protocol ChannelDeparture: Sendable {
    func leaveAll(_ userID: String, _ repositories: Repositories) throws
}
