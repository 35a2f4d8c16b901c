import ParleyCore

/// Events and messages for the realtime tests, built in memory.
enum EventFixtures {
    static func user(_ id: String) -> BasicUser {
        BasicUser(userID: id, nickname: id, profileURL: "", isActive: true)
    }

    static func message(
        from senderID: String?, in channelURL: String = "c1", type: MessageType = .user, isOpMsg: Bool = false, silent: Bool = false,
        kind: ChannelKind = .group
    ) -> Message {
        Message(
            messageID: 1, type: senderID == nil ? .admin : type, channelURL: channelURL, sender: senderID.map(user), message: "hi",
            customType: "", data: "", mentionType: .users, mentionedUserIDs: [], sortedMetaarray: [], isOpMsg: isOpMsg, silent: silent,
            createdAt: 1_700_000_000_000, updatedAt: 0, isRemoved: false, dedupID: nil, channelKind: kind)
    }

    static func event(
        _ id: Int64 = 1, _ type: EventType = .messageReceived, channelURL: String? = "c1", payload: EventPayload = .nothing,
        kind: ChannelKind = .group
    ) -> Event {
        Event(
            eventID: id, type: type, createdAt: 1_700_000_000_000, channelURL: channelURL, audience: .joinedMembers, userIDs: [],
            payload: payload, channelKind: kind)
    }

    /// A `message_received` event for a message `senderID` sent (nil: an admin message).
    static func sent(
        by senderID: String?, in channelURL: String = "c1", kind: ChannelKind = .group, isOpMsg: Bool = false, silent: Bool = false
    ) -> Event {
        event(
            channelURL: channelURL,
            payload: .message(message(from: senderID, in: channelURL, isOpMsg: isOpMsg, silent: silent, kind: kind)), kind: kind)
    }
}
