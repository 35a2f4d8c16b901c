/// Ends the open-channel participations that nothing holds any more (API.md §8.3), with their
/// events, inside the caller's transaction.
///
/// The realtime side knows when sockets close and instances die; the rules of exiting belong to
/// the chat services, which implement it; the container connects the two, so that neither
/// target imports the other.
public protocol ParticipationSweep: Sendable {
    /// `userIDs`' lapsed participations (those of every user when nil).
    func endLapsed(userIDs: [String]?, _ repositories: Repositories) throws
}
