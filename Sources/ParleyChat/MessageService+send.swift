import ParleyCore
import ParleyModeration
import ParleyStore
import ParleyTranslation

/// Sending messages (API.md §4.2): every write of a send, in one transaction.
///
/// Rules of a send that live in SQL, in the one statement of `MessageRepository.insert` (a send
/// is the hottest write; one statement is one round trip and one lock order):
/// - in a 1-to-1 channel whose other member blocks the sender, the message is hidden from that
///   member (`hidden_from`): no unread number, no list move, no auto-unhide for them (API.md §7.3);
/// - members who hid the channel with auto-unhide (`hidden_state` 1) see it again;
/// - the sender has read everything up to their own message (read state and unread count).
/// The unread sequence (`counted_seq`) skips silent and hidden messages there too, and the
/// message's push is queued there (`push_queue`, one row, unless silent or `send_push: false`).
extension MessageService {
    /// Supergroups refresh their members' list sort key at most once a minute; smaller channels
    /// on every message.
    static let superGroupActivityThrottle: Int64 = 60_000

    /// Sends a message; `created` is false when a retry with the same `dedup_id` found the
    /// message the first attempt made (an uploaded file of the retry is then deleted).
    public func send(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ new: NewMessage) async throws -> (
        message: Message, created: Bool
    ) {
        if new.type == .admin { try caller.requireAdmin() }
        if let senderID = new.senderID { try caller.requireActingAs(senderID) }
        var translated = new
        var lateTranslations: TranslationJob?
        if !new.targetLanguages.isEmpty {
            guard new.type == .user else { throw ParleyError.invalidValue("target_langs", "only user messages (MESG) are translated") }
            // Checked before the provider is asked (and paid); the transaction checks again.
            let (caller, senderID, now) = (caller, new.senderID, clock.nowMillis)
            _ = try await store.read { try Self.authorizeSend(caller, kind, channelURL, senderID: senderID, now: now, $0) }
            (translated.translations, lateTranslations) = try await translateBeforeStoring(new.message, into: new.targetLanguages)
        }
        let now = clock.nowMillis
        let new = translated
        let hits = FilterHits(filters: try await filters?.current())
        do {
            let sent = try await commitSend(new, caller, kind, channelURL, lateTranslations, hits, now: now)
            if let senderID = new.senderID { activity?.record(senderID, now: now) }
            await strike(hits.strike, new.senderID, kind, channelURL)
            return sent
        } catch let refusal as FloodProtection.Refusal {
            if let senderID = new.senderID { await FloodProtection.alert(senderID, in: kind, channelURL, now: now, store) }
            throw refusal.error
        } catch let blocked as MessageFilterSet.Blocked {
            await strike(blocked.strike, new.senderID, kind, channelURL)
            throw blocked.error
        }
    }

    /// The send's transaction.
    private func commitSend(
        _ unfiltered: NewMessage, _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ lateTranslations: TranslationJob?,
        _ hits: FilterHits, now: Int64
    ) async throws -> (message: Message, created: Bool) {
        let (settings, files) = (settings, files)
        // Concurrent sends share a transaction (group commit), each in a savepoint of its own.
        return try await store.sharedTransaction(lockOrder: channelURL) { [lateTranslations] repositories in
            let (record, member) = try Self.authorizeSend(caller, kind, channelURL, senderID: unfiltered.senderID, now: now, repositories)
            let new = try hits.filter(unfiltered, customType: record.customType)
            // A masked text's translations would carry what was masked: it goes untranslated.
            let lateTranslations = new.message == unfiltered.message ? lateTranslations : nil
            if !record.isEphemeral, let existing = try Self.earlierSend(channelURL, new, now: now, repositories) {
                // A scheduled upload's retry carries the very file the first attempt's message holds.
                if let fileID = new.file?.fileID, existing.file?.fileID != fileID {
                    repositories.afterCommit { await files.discard(fileID) }
                }
                return (existing, false)
            }
            // Retries found above do not count; the admin is exempt.
            if let senderID = new.senderID, !caller.isAdmin {
                try FloodProtection.admit(
                    senderID, into: kind, channelURL, limit: settings.limits.messagesPerSecond, now: now, repositories)
            }
            let parent = try new.parentMessageID.map { try Self.replyParent($0, channelURL, senderID: new.senderID, repositories) }
            let poll = try new.pollID.map {
                try Self.pollToCarry($0, channelURL, kind, senderID: new.senderID, caller, ephemeral: record.isEphemeral, repositories)
            }
            let sender = member?.user
            let isOperator = member?.isOperator ?? false
            let message: Message
            if record.isEphemeral {
                message = Message(
                    sent: new, messageID: try repositories.messages.nextID(), channelURL: channelURL, sender: sender,
                    isOperator: isOperator, createdAt: now, channelKind: kind
                )
            } else if kind == .open {
                message = try repositories.messages.insertOpen(channelURL, new, sender: sender, isOperator: isOperator, now: now)
                if let dedupID = new.dedupID, let senderID = new.senderID {
                    try repositories.messageDedup.complete(channelURL, senderID: senderID, dedupID: dedupID, messageID: message.messageID)
                }
            } else {
                message = try repositories.messages.insert(
                    channelURL, new, sender: sender, isOperator: isOperator, now: now,
                    memberActivityThrottle: record.isSuper ? Self.superGroupActivityThrottle : 0
                )
                if let dedupID = new.dedupID, let senderID = new.senderID {
                    try repositories.messageDedup.complete(channelURL, senderID: senderID, dedupID: dedupID, messageID: message.messageID)
                }
                // Silent messages count for nobody, mentions included.
                if !new.isSilent {
                    try repositories.receipts.recordMentions(
                        channelURL, senderID: new.senderID, mentionType: new.mentionType,
                        mentionedUserIDs: Array(new.mentionedUserIDs.prefix(Validation.maxMentionedUsers)), hiddenFrom: message.hiddenFrom
                    )
                }
            }
            if !record.isEphemeral && new.type == .user {
                previewAfterCommit(new.message, by: new.senderID ?? "", channelURL, message.messageID, repositories)
            }
            if !record.isEphemeral {
                // Part of the new message, not a change to it.
                _ = try repositories.messages.addTranslations(message.messageID, new.translations, source: new.message, now: nil)
                if let lateTranslations {
                    storeLateTranslations(
                        lateTranslations, already: Set(new.translations.keys), channelURL, message.messageID, source: new.message,
                        repositories)
                }
            }
            if let file = new.file, let fileID = file.fileID {
                try repositories.files.insert(
                    fileID: fileID, file, channelURL: channelURL, messageID: record.isEphemeral ? nil : message.messageID, now: now
                )
            }
            // A new message has no reactions yet: only the mentioned users' profiles to add.
            var sent = message
            sent.mentionedUsers = try repositories.users.basicUsers(new.mentionedUserIDs)
            sent.parentMessageInfo = parent.map(ParentMessageInfo.init(of:))
            ChannelEvents.message(.messageReceived, sent, repositories)
            if let parent, !record.isEphemeral { try Self.recordReply(sent, to: parent.messageID, repositories) }
            if let poll { sent.poll = try Self.carry(poll, in: sent, now: now, repositories) }
            return (sent, true)
        }
    }

    /// The message an earlier send with the same `dedup_id` made, if any; otherwise the id is
    /// claimed for this send. 409 while that earlier send has not committed.
    private static func earlierSend(_ channelURL: String, _ new: NewMessage, now: Int64, _ repositories: Repositories) throws -> Message? {
        guard let dedupID = new.dedupID, let senderID = new.senderID,
            case .some(let existingID) = try repositories.messageDedup.claim(channelURL, senderID: senderID, dedupID: dedupID, now: now)
        else { return nil }
        guard let existingID, let existing = try repositories.messages.find(channelURL, existingID, viewerID: senderID) else {
            throw ParleyError.alreadyExists("A message with dedup_id \"\(dedupID)\" is being sent.")
        }
        return try MessageDetails.attach(existing, repositories)
    }

    /// The channel and the sender's membership, read once (the send path is the hottest write),
    /// if the sender may send: 404 for a channel they cannot see, 403 when not joined (not a
    /// participant of an open channel), banned (900100), muted (900041) or frozen.
    ///
    /// The channel row is locked first, as a ban or mute locks it: a ban that commits while this
    /// send waits is seen by the reads that follow, so no message of a banned user is accepted
    /// after the ban.
    static func authorizeSend(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, senderID: String?, now: Int64, _ repositories: Repositories
    ) throws -> (ChannelRecord, (state: MemberState, isOperator: Bool, user: BasicUser)?) {
        if kind == .open { return try authorizeOpenSend(caller, channelURL, senderID: senderID, now: now, repositories) }
        let (found, sender) = try repositories.groupChannels.findForSend(channelURL, senderID: senderID, now: now)
        guard let record = found else { throw ChannelAccess.notFound(channelURL) }
        let member = sender.map { (state: $0.state, isOperator: $0.isOperator, user: $0.user) }
        let access = ChannelAccess(caller: caller, isPublic: record.isPublic, state: member?.state, isOperator: member?.isOperator ?? false)
        try access.requireView(channelURL)
        if let senderID, member?.state != .joined {
            if let banned = try ModerationRules.bannedSender(senderID, .group, channelURL, now: now, repositories) { throw banned }
            throw ParleyError.forbidden("\"\(senderID)\" is not a joined member of \"\(channelURL)\".")
        }
        try ContributionRules.require(
            isMuted: sender?.mutedUntil.map { Restriction.inForce(endAt: $0, at: now) } ?? false, channelFrozen: record.freeze,
            exemptFromFreeze: caller.isAdmin || (member?.isOperator ?? false))
        return (record, member)
    }

    /// `authorizeSend` for an open channel: only participants send (API.md §8.3); operators
    /// write while it is frozen.
    private static func authorizeOpenSend(
        _ caller: Caller, _ channelURL: String, senderID: String?, now: Int64, _ repositories: Repositories
    ) throws -> (ChannelRecord, (state: MemberState, isOperator: Bool, user: BasicUser)?) {
        guard let record = try repositories.openChannels.find(channelURL, forUpdate: true) else {
            throw ChannelAccess.notFound(channelURL)
        }
        guard let senderID else {
            if record.freeze && !caller.isAdmin { throw ParleyError.channelFrozen }
            return (ChannelRecord(open: record), nil)
        }
        let sender = try repositories.participants.sender(channelURL, senderID, now: now)
        guard let sender, sender.isParticipant else {
            if let banned = try ModerationRules.bannedSender(senderID, .open, channelURL, now: now, repositories) { throw banned }
            throw ParleyError.forbidden("\"\(senderID)\" is not a participant of \"\(channelURL)\": enter it first.")
        }
        try ContributionRules.require(
            isMuted: sender.mutedUntil.map { Restriction.inForce(endAt: $0, at: now) } ?? false, channelFrozen: record.freeze,
            exemptFromFreeze: caller.isAdmin || sender.isOperator)
        return (ChannelRecord(open: record), (state: .joined, isOperator: sender.isOperator, user: sender.user))
    }
}
