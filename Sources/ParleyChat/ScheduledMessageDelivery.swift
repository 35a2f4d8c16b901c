import Logging
import ParleyCore
import ParleyStore

/// How scheduled messages are sent (API.md §13.3).
public struct ScheduledDeliverySettings: Sendable {
    /// Whether this instance sends due messages (the others on the database do in any case).
    public var enabled = true
    /// How often an instance looks for due messages: a message goes out at most this late.
    public var pollInterval: Duration = .milliseconds(200)
    /// How long a claim keeps other instances off a message. Short: when its instance dies, the
    /// next claims it this late; a send that outlasts it is safe (see `ScheduledMessage.dedupID`).
    public var lease: Duration = .milliseconds(800)
    public var batch = 32
    /// A send that failed for a reason of the moment (the database, the flood limit) is tried
    /// again this much later, at most `maxAttempts` times, then it fails.
    public var retryDelay: Duration = .seconds(1)
    public var maxAttempts = 20

    public init() {}
}

/// Sends one scheduled message through the live send path, as its sender, at that moment's rules:
/// a refusal a live send would get (the sender left, was banned or muted, the channel was frozen
/// or deleted) fails it with that refusal; anything else is tried again.
public struct ScheduledMessageDelivery: Sendable {
    let store: Store
    let clock: Clock
    let messages: MessageService
    let settings: ScheduledDeliverySettings
    let logger: Logger

    public init(store: Store, clock: Clock, messages: MessageService, settings: ScheduledDeliverySettings, logger: Logger) {
        self.store = store
        self.clock = clock
        self.messages = messages
        self.settings = settings
        self.logger = logger
    }

    public enum Outcome: Sendable {
        case sent(messageID: Int64)
        case failed(ParleyError)
        case later
    }

    public func deliver(_ scheduled: ScheduledMessage) async -> Outcome {
        var content = scheduled.content
        content.dedupID = scheduled.dedupID
        let id = scheduled.scheduledMessageID
        do {
            let (message, _) = try await messages.send(.user(scheduled.sender.userID), .group, scheduled.channelURL, content)
            let now = clock.nowMillis
            try await store.transaction { try $0.scheduledMessages.markSent(id, messageID: message.messageID, now: now) }
            return .sent(messageID: message.messageID)
        } catch let liveRefusal as ParleyError where Self.isFinal(liveRefusal) || scheduled.attempts >= settings.maxAttempts {
            let now = clock.nowMillis
            let refusal = liveRefusal.status == 404 ? await plainer(liveRefusal, scheduled, now: now) : liveRefusal
            do {
                return try await fail(scheduled, refusal, now: now)
            } catch {
                logger.warning("recording a scheduled message's failure failed", metadata: ["id": "\(id)", "error": "\(error)"])
                return .failed(refusal)
            }
        } catch {
            let delay = settings.retryDelay.milliseconds
            logger.notice("a scheduled message is tried again", metadata: ["id": "\(id)", "error": "\(error)"])
            try? await store.transaction { try $0.scheduledMessages.release(id, delay: delay) }
            return .later
        }
    }

    /// Records the refusal, unless an earlier attempt's send committed after all (its instance
    /// died before recording it, and the sender was refused since): that message stands. An
    /// uploaded file that no message took is deleted.
    private func fail(_ scheduled: ScheduledMessage, _ refusal: ParleyError, now: Int64) async throws -> Outcome {
        let id = scheduled.scheduledMessageID
        let outcome = try await store.transaction { repositories -> Outcome in
            let messageDedup = repositories.messageDedup
            if let sent = try messageDedup.made(scheduled.channelURL, senderID: scheduled.sender.userID, dedupID: scheduled.dedupID) {
                try repositories.scheduledMessages.markSent(id, messageID: sent, now: now)
                return .sent(messageID: sent)
            }
            return try repositories.scheduledMessages.markFailed(id, code: refusal.code, reason: refusal.message, now: now)
                ? .failed(refusal) : .later
        }
        if case .failed = outcome, let fileID = scheduled.content.file?.fileID { await messages.files.discard(fileID) }
        return outcome
    }

    /// A sender who left a private channel, or was banned from it, no longer sees it: the live
    /// send's refusal is "not found". Asked as the admin, the channel says why (400108 not a
    /// member, 900100 banned), or that it was deleted.
    private func plainer(_ refusal: ParleyError, _ scheduled: ScheduledMessage, now: Int64) async -> ParleyError {
        do {
            _ = try await store.transaction { repositories in
                try MessageService.authorizeSend(
                    .admin, .group, scheduled.channelURL, senderID: scheduled.sender.userID, now: now, repositories)
            }
            return refusal
        } catch let reason as ParleyError {
            return reason
        } catch {
            return refusal
        }
    }

    /// A refusal that waiting does not change: a client error other than a conflict of the
    /// moment (409: the same send still committing elsewhere) or the flood limit (429).
    static func isFinal(_ refusal: ParleyError) -> Bool {
        (400..<500).contains(refusal.status) && refusal.status != 409 && refusal.status != 429
    }
}
