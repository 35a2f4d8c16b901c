import ParleyCore
import ParleyStore

extension EventHub {
    /// The users with local subscriptions who receive `event` (API.md §6.2).
    static func recipients(
        of event: Event, members: [ChannelRecipient], among subscriptions: [String: [String: EventSubscription]]
    ) -> Set<String> {
        var users = Set(event.userIDs.filter { subscriptions[$0] != nil && $0 != event.exceptUserID })
        guard event.audience != .users else { return users }
        let createdAt: Int64? = if case .message(let message) = event.payload { message.createdAt } else { nil }
        for member in members where subscriptions[member.userID] != nil {
            guard member.state == .joined || event.audience == .members, member.userID != event.exceptUserID else { continue }
            // An event from before they came in (read late, while the hub catches up) is not theirs.
            guard event.eventID > member.sinceEventID else { continue }
            // A message from before the member may see messages (history option, reset, hidden) is not theirs.
            if let createdAt, createdAt < member.visibleFrom { continue }
            users.insert(member.userID)
        }
        return users
    }
}
