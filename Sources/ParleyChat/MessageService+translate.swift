import OwnedTasks
import ParleyCore
import ParleyStore
import ParleyTranslation

/// Translations of user messages (API.md §9): on demand, on send (`target_langs`), and again
/// after an edit. A translation is stored once per language; what a send or an edit could not
/// wait for is stored when it arrives and announced with `message_updated`.
extension MessageService {
    /// `POST …/messages/{id}/translation`: the message with its translations into `languages`
    /// (stored ones are not asked for again). 503/500902 when the provider cannot answer.
    public func translate(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, into codes: [String])
        async throws -> Message
    {
        let languages = try translator.languages(codes)
        guard !languages.isEmpty else { throw ParleyError.invalidValue("target_langs", "must name at least one language") }
        let now = clock.nowMillis
        var message = try await store.read { try Self.readable(kind, channelURL, messageID, caller, now: now, $0) }
        guard message.type == .user, !message.isRemoved else {
            throw ParleyError.invalidValue("message_id", "only user messages (MESG) are translated")
        }
        let stored = message.translations ?? [:]
        let missing = languages.filter { stored[$0] == nil }
        guard !missing.isEmpty else { return message }
        let outcomes = await translator.start(message.message, into: missing, deadline: .now + settings.translationLimit).all()
        let done = outcomes.compactMapValues { try? $0.get() }
        let source = message.message
        if !done.isEmpty {
            let now = clock.nowMillis
            _ = try await store.transaction { try $0.messages.addTranslations(messageID, done, source: source, now: now) }
        }
        for language in missing {
            if case .failure(let error)? = outcomes[language] { throw Self.failure(error) }
        }
        message.translations = stored.merging(done) { $1 }
        return message
    }

    /// The translations of a text about to be stored that arrive within the send limit, and the
    /// job, when some are still under way (see `storeLateTranslations`).
    func translateBeforeStoring(_ text: String, into codes: [String]) async throws -> (early: [String: String], job: TranslationJob?) {
        let languages = try translator.languages(codes)
        guard !languages.isEmpty else { return ([:], nil) }
        let job = translator.start(text, into: languages, deadline: .now + settings.translationLimit)
        let early = await job.finished(within: settings.translationSendLimit)
        return (early, early.count < languages.count ? job : nil)
    }

    /// After the commit: the translations the send or edit did not wait for, stored as they
    /// arrive (unless the text changed meanwhile) and announced with `message_updated`. A
    /// provider failure leaves the message without them; the send has succeeded regardless.
    func storeLateTranslations(
        _ job: TranslationJob, already: Set<String>, _ channelURL: String, _ messageID: Int64, source: String,
        _ repositories: Repositories
    ) {
        updateAfterCommit(channelURL, messageID, repositories) {
            let late = await job.all().compactMapValues { try? $0.get() }.filter { !already.contains($0.key) }
            guard !late.isEmpty else { return nil }
            return { repositories, now in try repositories.messages.addTranslations(messageID, late, source: source, now: now) }
        }
    }

    /// After the commit: `work` runs in a task of its own (never delaying the request); the change
    /// it returns, if any, is applied with `apply`.
    func updateAfterCommit(
        _ channelURL: String, _ messageID: Int64, _ repositories: Repositories,
        _ work: @escaping @Sendable () async -> (@Sendable (Repositories, Int64) throws -> Bool)?
    ) {
        let service = self
        repositories.afterCommit {
            service.tasks.spawn("a late change to message \(messageID)") {
                guard let change = await work() else { return }
                try await service.apply(change, channelURL, messageID)
            }
        }
    }

    /// Applies a late change to a message in a transaction and, when it applies (the text is
    /// unchanged), announces it with `message_updated`.
    func apply(_ change: @escaping @Sendable (Repositories, Int64) throws -> Bool, _ channelURL: String, _ messageID: Int64) async throws {
        let now = clock.nowMillis
        try await store.transaction { repositories in
            guard try change(repositories, now), let message = try repositories.messages.find(channelURL, messageID, viewerID: nil)
            else { return }
            ChannelEvents.message(.messageUpdated, try MessageDetails.attach(message, repositories), repositories)
        }
    }

    /// What a failed translation means to the caller: a language the provider refuses is the
    /// request's fault (400111); anything else is the provider's (503/500902).
    private static func failure(_ error: TranslationError) -> ParleyError {
        if case .rejected(let status, let message) = error, status == 400 {
            return ParleyError.invalidValue("target_langs", "the translation provider refused it (\(message))")
        }
        return ParleyError.unavailable
    }
}
