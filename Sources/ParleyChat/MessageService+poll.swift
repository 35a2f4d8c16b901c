import ParleyCore
import ParleyStore

/// A message carrying a poll (API.md §13.4): sent with `poll_id`, it gives the poll its channel.
extension MessageService {
    /// The poll a send names, locked: made by the sender (for the admin's send, by anyone), not
    /// carried by another message, and made for this channel if for any (400111 otherwise).
    static func pollToCarry(
        _ pollID: Int64, _ channelURL: String, _ kind: ChannelKind, senderID: String?, _ caller: Caller, ephemeral: Bool,
        _ repositories: Repositories
    ) throws -> Poll {
        guard !ephemeral else { throw ParleyError.invalidValue("poll_id", "an ephemeral channel stores no message to carry a poll") }
        guard let poll = try repositories.polls.find(pollID, forUpdate: true) else {
            throw ParleyError.invalidValue("poll_id", "there is no poll \(pollID)")
        }
        guard poll.messageID == nil else { throw ParleyError.invalidValue("poll_id", "poll \(pollID) is carried by another message") }
        guard caller.isAdmin || (senderID != nil && poll.createdBy == senderID) else {
            throw ParleyError.invalidValue("poll_id", "poll \(pollID) was made by someone else")
        }
        if let url = poll.channelURL, url != channelURL || poll.channelKind != kind {
            throw ParleyError.invalidValue("poll_id", "poll \(pollID) was made for another channel")
        }
        return poll
    }

    /// Attaches the poll to the message just stored; returns the poll as it now is.
    static func carry(_ poll: Poll, in message: Message, now: Int64, _ repositories: Repositories) throws -> Poll? {
        try repositories.polls.attach(
            poll.pollID, channelURL: message.channelURL, kind: message.channelKind, messageID: message.messageID, now: now)
        return try repositories.polls.find(poll.pollID)
    }
}
