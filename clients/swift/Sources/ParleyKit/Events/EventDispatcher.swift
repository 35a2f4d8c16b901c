import Foundation

/// Hands each frame to the delegates and the async streams, in the order the connection reads
/// them (it calls `dispatch` one frame at a time), and keeps who is typing where.
final class EventDispatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var channelDelegates: [String: Weak<any ChannelDelegate>] = [:]
    private var connectionDelegates: [String: Weak<any ConnectionDelegate>] = [:]
    private var eventStreams: [UUID: AsyncStream<ParleyEvent>.Continuation] = [:]
    private var stateStreams: [UUID: AsyncStream<ConnectionState>.Continuation] = [:]
    private var typing: [ChannelRef: [String: User]] = [:]
    private(set) var state: ConnectionState = .closed(.requested)

    func add(_ delegate: any ChannelDelegate, identifier: String) {
        lock.withLock { channelDelegates[identifier] = Weak(delegate) }
    }

    func add(_ delegate: any ConnectionDelegate, identifier: String) {
        lock.withLock { connectionDelegates[identifier] = Weak(delegate) }
    }

    func removeDelegate(identifier: String) {
        lock.withLock {
            channelDelegates[identifier] = nil
            connectionDelegates[identifier] = nil
        }
    }

    func events() -> AsyncStream<ParleyEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ParleyEvent.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.eventStreams.removeValue(forKey: id) } }
        lock.withLock { eventStreams[id] = continuation }
        return stream
    }

    func states() -> AsyncStream<ConnectionState> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.stateStreams.removeValue(forKey: id) } }
        lock.withLock {
            continuation.yield(state)
            stateStreams[id] = continuation
        }
        return stream
    }

    func dispatch(state new: ConnectionState, userId: String) {
        let (previous, streams, delegates) = lock.withLock {
            let previous = state
            state = new
            if new != .open { typing = [:] }
            return (previous, Array(stateStreams.values), connectionDelegates.values.compactMap(\.value))
        }
        guard previous != new else { return }
        streams.forEach { $0.yield(new) }
        for delegate in delegates {
            switch new {
            case .open: if case .reconnecting = previous { delegate.didSucceedReconnection() } else { delegate.didConnect(userId: userId) }
            case .reconnecting(let attempt): if attempt == 1 { delegate.didStartReconnection() }
            case .closed(let reason): delegate.didDisconnect(userId: userId, reason: reason)
            case .connecting: break
            }
        }
    }

    func dispatch(resync changes: ChannelChanges) {
        lock.withLock { connectionDelegates.values.compactMap(\.value) }.forEach { $0.didResync(changes) }
    }

    func dispatch(_ event: ParleyEvent) {
        let (streams, delegates) = lock.withLock { (Array(eventStreams.values), channelDelegates.values.compactMap(\.value)) }
        streams.forEach { $0.yield(event) }
        let typingUsers = trackTyping(event)
        for delegate in delegates {
            Self.deliver(event, to: delegate, typingUsers: typingUsers)
            delegate.didReceive(event)
        }
    }

    /// Who is typing in the event's channel after it, when it is a typing frame.
    private func trackTyping(_ event: ParleyEvent) -> [User]? {
        guard event.type == "typing_started" || event.type == "typing_ended", let ref = event.channelRef, let user = event.user
        else { return nil }
        return lock.withLock {
            typing[ref, default: [:]][user.userId] = event.type == "typing_started" ? user : nil
            return typing[ref, default: [:]].values.sorted { $0.userId < $1.userId }
        }
    }

    private static func deliver(_ event: ParleyEvent, to delegate: any ChannelDelegate, typingUsers: [User]?) {
        guard let ref = event.channelRef else {
            if event.type == "unread_count_changed", let count = event.unreadCount { delegate.channelDidUpdateUnreadCount(count) }
            return
        }
        switch event.type {
        case "message_received": event.message.map { delegate.channel(ref, didReceive: $0) }
        case "message_updated": event.message.map { delegate.channel(ref, didUpdate: $0) }
        case "message_deleted": event.messageId.map { delegate.channel(ref, messageWasDeleted: $0) }
        case "reaction_updated": event.reaction.map { delegate.channel(ref, didUpdateReaction: $0) }
        case "typing_started", "typing_ended": delegate.channelDidUpdateTypingStatus(ref, typingUsers: typingUsers ?? [])
        case "read": event.receipt.map { delegate.channelDidUpdateReadStatus(ref, userId: $0.userId, readAt: $0.ts) }
        case "delivered": event.receipt.map { delegate.channelDidUpdateDeliveryStatus(ref, userId: $0.userId, deliveredAt: $0.ts) }
        case "channel_changed": event.channel.map { delegate.channelWasChanged($0) }
        case "channel_deleted": delegate.channelWasDeleted(ref)
        case "channel_frozen": delegate.channelWasFrozen(ref)
        case "channel_unfrozen": delegate.channelWasUnfrozen(ref)
        case "member_joined": event.users?.forEach { delegate.channel(ref, userDidJoin: $0) }
        case "member_left": event.users?.forEach { delegate.channel(ref, userDidLeave: $0) }
        case "participant_entered": event.users?.forEach { delegate.channel(ref, userDidEnter: $0) }
        case "participant_exited": event.users?.forEach { delegate.channel(ref, userDidExit: $0) }
        case "user_invited":
            let body = event.decode(InvitationBody.self)
            delegate.channel(ref, didReceiveInvitation: body?.invitees ?? [], inviter: body?.inviter)
        case "operators_changed": delegate.channelDidUpdateOperators(ref, operators: event.users ?? [])
        case "user_banned": event.user.map { delegate.channel(ref, userWasBanned: $0) }
        case "user_muted": event.user.map { delegate.channel(ref, userWasMuted: $0) }
        case "user_unbanned": event.user.map { delegate.channel(ref, userWasUnbanned: $0) }
        case "user_unmuted": event.user.map { delegate.channel(ref, userWasUnmuted: $0) }
        case "unread_count_changed": event.unreadCount.map { delegate.channelDidUpdateUnreadCount($0) }
        default: break
        }
    }

    private struct InvitationBody: Decodable {
        let inviter: User?
        let invitees: [User]
    }
}

extension ParleyEvent {
    var channelRef: ChannelRef? {
        guard let url = channelURL else { return nil }
        return ChannelRef(channelURL: url, channelType: channelType ?? .group)
    }
}

/// A delegate held weakly, as the seeds' SDK does: a screen that goes away stops hearing.
struct Weak<T>: @unchecked Sendable {
    private weak var object: AnyObject?

    init(_ value: T) {
        object = value as AnyObject
    }

    var value: T? { object as? T }
}
