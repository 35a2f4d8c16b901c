/// The kinds of event of the realtime stream (API.md §6.2). `sessionEnded` is internal: it
/// closes the user's sockets (revoked tokens, deactivation) and never reaches a client. The
/// webhook-only kinds (`channelCreated`, `userBlocked`, `userUnblocked`, `reportFiled`,
/// `rateLimitExceeded`) reach no
/// socket either (they are written for nobody): they exist so that webhooks hear of the change in
/// its transaction, as they hear of every other (API.md §10).
public enum EventType: String, Sendable, Codable, CaseIterable {
    case messageReceived = "message_received"
    case messageUpdated = "message_updated"
    case messageDeleted = "message_deleted"
    case reactionUpdated = "reaction_updated"
    case read
    case delivered
    case channelChanged = "channel_changed"
    case channelDeleted = "channel_deleted"
    case channelFrozen = "channel_frozen"
    case channelUnfrozen = "channel_unfrozen"
    case channelHidden = "channel_hidden"
    case channelUnhidden = "channel_unhidden"
    case memberJoined = "member_joined"
    case memberLeft = "member_left"
    case userInvited = "user_invited"
    case invitationDeclined = "invitation_declined"
    case operatorsChanged = "operators_changed"
    case metadataChanged = "metadata_changed"
    case metacounterChanged = "metacounter_changed"
    case messagePinned = "message_pinned"
    case messageUnpinned = "message_unpinned"
    case pollUpdated = "poll_updated"
    case pollVoted = "poll_voted"
    case pollDeleted = "poll_deleted"
    case userBanned = "user_banned"
    case userUnbanned = "user_unbanned"
    case userMuted = "user_muted"
    case userUnmuted = "user_unmuted"
    case participantEntered = "participant_entered"
    case participantExited = "participant_exited"
    case sessionEnded = "session_ended"
    case channelCreated = "channel_created"
    case userBlocked = "user_blocked"
    case userUnblocked = "user_unblocked"
    case reportFiled = "report_filed"
    case rateLimitExceeded = "rate_limit_exceeded"

    /// Whether the kind reaches webhooks only.
    public var isWebhookOnly: Bool {
        switch self {
        case .channelCreated, .userBlocked, .userUnblocked, .reportFiled, .rateLimitExceeded: true
        default: false
        }
    }
}

/// Who receives an event, decided when it is delivered (so nobody ever gets an event about a
/// channel they can no longer read), plus the event's own `userIDs`.
public enum EventAudience: Int, Sendable {
    /// The channel's joined members.
    case joinedMembers = 0
    /// The channel's joined and invited members.
    case members = 1
    /// Only the event's `userIDs`.
    case users = 2
}

/// What an event carries: domain values, rendered for each recipient when it is delivered (a
/// message's file links carry that recipient's own auth key).
public enum EventPayload: Sendable, Equatable, Codable {
    case message(Message)
    case messageID(Int64)
    case reaction(messageID: Int64, key: String, userID: String, added: Bool)
    /// A member's read or delivery position.
    case receipt(userID: String, ts: Int64)
    case channel(GroupChannel)
    /// A group channel an update changed, and what it changed (for webhooks; sockets get the
    /// channel as with `channel`).
    case changedChannel(GroupChannel, changes: [ChannelFieldChange])
    case openChannel(OpenChannel)
    case users([BasicUser])
    case invitation(inviter: BasicUser?, invitees: [BasicUser])
    case metadata(changed: [String: String], deletedKeys: [String])
    /// A channel metacounter's values after a change, and the keys deleted.
    case metacounter(changed: [String: Int64], deletedKeys: [String])
    /// A ban or mute imposed.
    case restriction(Restriction)
    /// A ban or mute lifted: whose.
    case user(BasicUser)
    /// Who blocked or unblocked whom.
    case block(blocker: BasicUser, blockees: [BasicUser])
    case report(Report)
    /// A poll after a change or a vote (API.md §13.4), and a deleted poll's id.
    case poll(Poll)
    case pollID(Int64)
    case nothing
}

extension NewEvent {
    /// A change only webhooks hear of (see `EventType.isWebhookOnly`): written for nobody.
    public static func webhookOnly(
        _ type: EventType, channelURL: String? = nil, channelKind: ChannelKind = .group, payload: EventPayload
    ) -> NewEvent {
        precondition(type.isWebhookOnly)
        return NewEvent(type, channelURL: channelURL, audience: .users, userIDs: [], payload: payload, channelKind: channelKind)
    }
}

/// An event a change produces, written by the service in the change's transaction.
public struct NewEvent: Sendable, Equatable {
    public let type: EventType
    public let channelURL: String?
    public let audience: EventAudience
    /// Recipients besides the audience (an invitee, a member who left), or the only ones.
    public let userIDs: [String]
    public let payload: EventPayload
    /// Who never receives it, whatever the audience: the member a message is hidden from (a
    /// block in a 1-to-1 channel) hears nothing of it, its edits, deletion and reactions included.
    public let exceptUserID: String?
    /// The kind of `channelURL`'s channel (its events go to participants when open).
    public let channelKind: ChannelKind

    public init(
        _ type: EventType, channelURL: String?, audience: EventAudience, userIDs: [String] = [], payload: EventPayload = .nothing,
        exceptUserID: String? = nil, channelKind: ChannelKind = .group
    ) {
        self.type = type
        self.channelURL = channelURL
        self.channelKind = channelKind
        self.audience = audience
        self.userIDs = userIDs
        self.payload = payload
        self.exceptUserID = exceptUserID
    }
}

/// An event as stored: numbered server-wide in commit order per channel.
public struct Event: Sendable, Equatable {
    public let eventID: Int64
    public let type: EventType
    public let createdAt: Int64
    public let channelURL: String?
    public let audience: EventAudience
    public let userIDs: [String]
    public let payload: EventPayload
    public let exceptUserID: String?
    public let channelKind: ChannelKind

    /// A message payload takes the event's channel kind (stored with the event, not the message).
    public init(
        eventID: Int64, type: EventType, createdAt: Int64, channelURL: String?, audience: EventAudience, userIDs: [String],
        payload: EventPayload, exceptUserID: String? = nil, channelKind: ChannelKind = .group
    ) {
        self.eventID = eventID
        self.type = type
        self.createdAt = createdAt
        self.channelURL = channelURL
        self.audience = audience
        self.userIDs = userIDs
        if case .message(var message) = payload, message.channelKind != channelKind {
            message.channelKind = channelKind
            self.payload = .message(message)
        } else {
            self.payload = payload
        }
        self.exceptUserID = exceptUserID
        self.channelKind = channelKind
    }

    /// The event as `userID` receives it: a message whose sender they block says so.
    public func seen(blockingSender: Bool) -> Event {
        guard blockingSender, case .message(var message) = payload else { return self }
        message.isSenderBlockedByViewer = true
        return Event(
            eventID: eventID, type: type, createdAt: createdAt, channelURL: channelURL, audience: audience, userIDs: userIDs,
            payload: .message(message), exceptUserID: exceptUserID, channelKind: channelKind)
    }

    /// The message the event carries (`message_received`, `message_updated`).
    public var message: Message? {
        if case .message(let message) = payload { return message }
        return nil
    }

    /// The sender of the message the event carries.
    public var messageSenderID: String? { message?.sender?.userID }
}
