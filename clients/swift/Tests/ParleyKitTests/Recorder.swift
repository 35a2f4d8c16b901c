import Foundation
import ParleyKit

/// A delegate that keeps what it heard, for the tests to look at.
final class Recorder: ChannelDelegate, ConnectionDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _received: [Message] = []
    private var _updated: [Message] = []
    private var _deleted: [Int64] = []
    private var _typing: [String: [String]] = [:]
    private var _reads: [String: Int64] = [:]
    private var _reactions: [ReactionChange] = []
    private var _joined: [String] = []
    private var _reconnections = 0
    private var _resyncs: [ChannelChanges] = []

    var received: [Message] { lock.withLock { _received } }
    var updated: [Message] { lock.withLock { _updated } }
    var deleted: [Int64] { lock.withLock { _deleted } }
    var reads: [String: Int64] { lock.withLock { _reads } }
    var reactions: [ReactionChange] { lock.withLock { _reactions } }
    var joined: [String] { lock.withLock { _joined } }
    var reconnections: Int { lock.withLock { _reconnections } }
    var resyncs: [ChannelChanges] { lock.withLock { _resyncs } }
    func typing(in channelURL: String) -> [String] { lock.withLock { _typing[channelURL] ?? [] } }

    func channel(_ channel: ChannelRef, didReceive message: Message) { lock.withLock { _received.append(message) } }
    func channel(_ channel: ChannelRef, didUpdate message: Message) { lock.withLock { _updated.append(message) } }
    func channel(_ channel: ChannelRef, messageWasDeleted messageId: Int64) { lock.withLock { _deleted.append(messageId) } }
    func channel(_ channel: ChannelRef, didUpdateReaction change: ReactionChange) { lock.withLock { _reactions.append(change) } }
    func channel(_ channel: ChannelRef, userDidJoin user: User) { lock.withLock { _joined.append(user.userId) } }

    func channelDidUpdateTypingStatus(_ channel: ChannelRef, typingUsers: [User]) {
        lock.withLock { _typing[channel.channelURL] = typingUsers.map(\.userId) }
    }

    func channelDidUpdateReadStatus(_ channel: ChannelRef, userId: String, readAt: Int64) { lock.withLock { _reads[userId] = readAt } }
    func didSucceedReconnection() { lock.withLock { _reconnections += 1 } }
    func didResync(_ changes: ChannelChanges) { lock.withLock { _resyncs.append(changes) } }
}
