import ParleyCore
import ParleyStore

/// Completes messages read from their rows with what other tables hold: each message's reactions
/// its mentioned users' profiles and its poll, one query each for a whole page.
enum MessageDetails {
    static func attach(_ messages: [Message], _ repositories: Repositories) throws -> [Message] {
        guard !messages.isEmpty else { return messages }
        var messages = messages
        let reactions = try repositories.reactions.reactions(messages.map(\.messageID))
        let polls = try repositories.polls.polls(messages.compactMap(\.pollID))
        let mentioned = Set(messages.flatMap(\.mentionedUserIDs))
        let users = Dictionary(
            try repositories.users.basicUsers(Array(mentioned)).map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first }
        )
        for index in messages.indices {
            messages[index].reactions = reactions[messages[index].messageID] ?? []
            messages[index].mentionedUsers = messages[index].mentionedUserIDs.compactMap { users[$0] }
            messages[index].poll = messages[index].pollID.flatMap { polls[$0] }
        }
        return messages
    }

    static func attach(_ message: Message, _ repositories: Repositories) throws -> Message {
        try attach([message], repositories)[0]
    }
}
