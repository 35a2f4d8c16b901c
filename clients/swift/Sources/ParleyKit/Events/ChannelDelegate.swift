/// Where an event happened: a channel's URL and kind (the event carries no more of it).
public struct ChannelRef: Sendable, Equatable, Hashable {
    public let channelURL: String
    public let channelType: ChannelType
}

/// Hears what happens in the signed-in user's channels, in the order it happened, each event
/// once (also across reconnections). Every method has an empty default: implement the ones a
/// screen needs. Methods are called one at a time from ParleyKit's own task, never on the main
/// actor: hop to the main actor to touch the UI.
public protocol ChannelDelegate: AnyObject, Sendable {
    func channel(_ channel: ChannelRef, didReceive message: Message)
    func channel(_ channel: ChannelRef, didUpdate message: Message)
    func channel(_ channel: ChannelRef, messageWasDeleted messageId: Int64)
    func channel(_ channel: ChannelRef, didUpdateReaction change: ReactionChange)
    /// `typingUsers`: everyone typing in the channel now, the signed-in user included.
    func channelDidUpdateTypingStatus(_ channel: ChannelRef, typingUsers: [User])
    func channelDidUpdateReadStatus(_ channel: ChannelRef, userId: String, readAt: Int64)
    func channelDidUpdateDeliveryStatus(_ channel: ChannelRef, userId: String, deliveredAt: Int64)
    func channelWasChanged(_ channel: GroupChannel)
    func channelWasDeleted(_ channel: ChannelRef)
    func channelWasFrozen(_ channel: ChannelRef)
    func channelWasUnfrozen(_ channel: ChannelRef)
    func channel(_ channel: ChannelRef, userDidJoin user: User)
    func channel(_ channel: ChannelRef, userDidLeave user: User)
    func channel(_ channel: ChannelRef, didReceiveInvitation invitees: [User], inviter: User?)
    func channelDidUpdateOperators(_ channel: ChannelRef, operators: [User])
    func channel(_ channel: ChannelRef, userWasBanned user: User)
    func channel(_ channel: ChannelRef, userWasMuted user: User)
    func channel(_ channel: ChannelRef, userWasUnbanned user: User)
    func channel(_ channel: ChannelRef, userWasUnmuted user: User)
    func channel(_ channel: ChannelRef, userDidEnter user: User)
    func channel(_ channel: ChannelRef, userDidExit user: User)
    func channelDidUpdateUnreadCount(_ count: UnreadCount)
    /// Every frame, those above included: for event types ParleyKit has no method for.
    func didReceive(_ event: ParleyEvent)
}

extension ChannelDelegate {
    public func channel(_ channel: ChannelRef, didReceive message: Message) {}
    public func channel(_ channel: ChannelRef, didUpdate message: Message) {}
    public func channel(_ channel: ChannelRef, messageWasDeleted messageId: Int64) {}
    public func channel(_ channel: ChannelRef, didUpdateReaction change: ReactionChange) {}
    public func channelDidUpdateTypingStatus(_ channel: ChannelRef, typingUsers: [User]) {}
    public func channelDidUpdateReadStatus(_ channel: ChannelRef, userId: String, readAt: Int64) {}
    public func channelDidUpdateDeliveryStatus(_ channel: ChannelRef, userId: String, deliveredAt: Int64) {}
    public func channelWasChanged(_ channel: GroupChannel) {}
    public func channelWasDeleted(_ channel: ChannelRef) {}
    public func channelWasFrozen(_ channel: ChannelRef) {}
    public func channelWasUnfrozen(_ channel: ChannelRef) {}
    public func channel(_ channel: ChannelRef, userDidJoin user: User) {}
    public func channel(_ channel: ChannelRef, userDidLeave user: User) {}
    public func channel(_ channel: ChannelRef, didReceiveInvitation invitees: [User], inviter: User?) {}
    public func channelDidUpdateOperators(_ channel: ChannelRef, operators: [User]) {}
    public func channel(_ channel: ChannelRef, userWasBanned user: User) {}
    public func channel(_ channel: ChannelRef, userWasMuted user: User) {}
    public func channel(_ channel: ChannelRef, userWasUnbanned user: User) {}
    public func channel(_ channel: ChannelRef, userWasUnmuted user: User) {}
    public func channel(_ channel: ChannelRef, userDidEnter user: User) {}
    public func channel(_ channel: ChannelRef, userDidExit user: User) {}
    public func channelDidUpdateUnreadCount(_ count: UnreadCount) {}
    public func didReceive(_ event: ParleyEvent) {}
}

/// Hears the connection: connected, reconnecting, disconnected, and a catch-up over REST after
/// the server could not replay what was missed (`resync_required`).
public protocol ConnectionDelegate: AnyObject, Sendable {
    func didConnect(userId: String)
    func didStartReconnection()
    func didSucceedReconnection()
    func didDisconnect(userId: String, reason: DisconnectReason)
    /// The changes missed while the server could not replay them (EVENTS.md §11).
    func didResync(_ changes: ChannelChanges)
}

extension ConnectionDelegate {
    public func didConnect(userId: String) {}
    public func didStartReconnection() {}
    public func didSucceedReconnection() {}
    public func didDisconnect(userId: String, reason: DisconnectReason) {}
    public func didResync(_ changes: ChannelChanges) {}
}

/// Channels that changed while the app could not hear them, and URLs of those it is no longer in.
public struct ChannelChanges: Sendable, Equatable {
    public let updated: [GroupChannel]
    public let deleted: [String]
}
