import ParleyCore
import ParleyModeration
import Synchronization

/// The message filters of one send or edit (API.md §14.7): applied inside its transaction, where
/// the channel's custom type is known, and the profanity hit kept for the triggered moderation
/// that follows the transaction.
final class FilterHits: Sendable {
    private let filters: MessageFilterSet?
    private let hit = Mutex<MessageFilterSettings.TriggeredModeration?>(nil)

    init(filters: MessageFilterSet?) {
        self.filters = filters
    }

    /// Whether any filter is set anywhere (else an edit need not read its channel's custom type).
    var applies: Bool { filters.map { !$0.isEmpty } ?? false }

    /// The triggered moderation a profanity hit counts against, if one was masked.
    var strike: MessageFilterSettings.TriggeredModeration? { hit.withLock { $0 } }

    /// The message with what the filters mask masked; throws `MessageFilterSet.Blocked`. Admin
    /// messages are the admin's and pass.
    func filter(_ new: NewMessage, customType: String) throws -> NewMessage {
        guard let filters, new.type != .admin else { return new }
        let outcome = try filters.check(new.message, customType: customType)
        guard outcome.text != new.message else { return new }
        hit.withLock { $0 = outcome.strike }
        var filtered = new
        filtered.message = outcome.text
        filtered.translations = [:]
        return filtered
    }

    /// An edit's new text, filtered the same way.
    func filter(text: String, customType: String) throws -> String {
        guard let filters else { return text }
        let outcome = try filters.check(text, customType: customType)
        if outcome.text != text { hit.withLock { $0 = outcome.strike } }
        return outcome.text
    }
}

extension MessageService {
    /// Counts a profanity hit against the sender (after the message's own transaction).
    func strike(_ rule: MessageFilterSettings.TriggeredModeration?, _ senderID: String?, _ kind: ChannelKind, _ channelURL: String) async {
        guard let rule, let senderID, let filters else { return }
        await filters.strike(senderID, kind, channelURL, rule)
    }
}
