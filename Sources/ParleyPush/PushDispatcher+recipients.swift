import ParleyCore
import ParleyStore

/// Who receives a round's pushes: the claimed messages grouped for reading, and the rules
/// decided on each member read (API.md §12.3).
extension PushDispatcher {
    typealias CandidateRead = (id: Int64, channelURL: String, senderID: String?, onlyDevices: [RetriedDevice]?)

    /// The claimed messages in groups read by one statement each: small channels together, up to
    /// about a page of members, a channel of more than a page alone (read a page at a time).
    static func groups(_ claims: [ClaimedPush], _ messages: [Int64: PushMessage], page: Int) -> [[CandidateRead]] {
        var groups: [[CandidateRead]] = []
        var current: [CandidateRead] = []
        var members = 0
        for claim in claims {
            let stored = messages[claim.messageID]!
            let read = (claim.messageID, stored.message.channelURL, stored.message.sender?.userID, claim.devices)
            let size = claim.devices?.count ?? stored.joinedMemberCount
            if size > page {
                groups.append([read])
                continue
            }
            if members + size > page, !current.isEmpty {
                groups.append(current)
                (current, members) = ([], 0)
            }
            current.append(read)
            members += size
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Which candidates of a page receive their message's push. A windowed channel's window is
    /// opened only by a push someone receives; when another push holds it open, only the members
    /// who have just read the channel receive this one.
    func decide(
        _ page: [PushCandidate], _ messages: [Int64: PushMessage], _ windows: inout WindowDecisions, now: Int64
    ) async throws -> [PushCandidate] {
        var recipients: [PushCandidate] = []
        for candidate in page {
            let stored = messages[candidate.messageID]!
            let message = PushAudience.Message(
                senderID: stored.message.sender?.userID, isRemoved: stored.message.isRemoved, isSupergroup: stored.isSuper,
                memberCount: stored.joinedMemberCount)
            var audience = candidate.audience
            audience.isMentioned = stored.message.mentions(audience.userID)
            // Hidden from them (they block the sender of a 1-to-1 message): never theirs to see.
            guard stored.message.hiddenFrom != audience.userID else { continue }
            guard message.isWindowed else {
                if PushAudience.receives(audience, message, windowOpen: true, now: now) { recipients.append(candidate) }
                continue
            }
            // Whether this message holds the window is settled once, by its first recipient.
            guard PushAudience.receives(audience, message, windowOpen: true, now: now) else { continue }
            if windows.opened[candidate.messageID] == nil {
                let channelURL = stored.message.channelURL
                windows.opened[candidate.messageID] = try await store.transaction {
                    try $0.pushQueue.openWindow(channelURL, now: now, window: PushAudience.supergroupWindowMillis)
                }
            }
            if windows.opened[candidate.messageID]! || PushAudience.receives(audience, message, windowOpen: false, now: now) {
                recipients.append(candidate)
            }
        }
        return recipients
    }

    struct WindowDecisions {
        /// Per windowed message: whether its push opened the window.
        var opened: [Int64: Bool] = [:]
    }
}
