import ParleyCore
import ParleyModeration
import ParleyStore
import ParleyTranslation

/// Editing and deleting messages (API.md §4.4).
extension MessageService {
    /// The sender, the channel's operators and the admin edit; `updated_at` records when.
    public func update(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ update: MessageUpdate)
        async throws -> Message
    {
        // A new text is translated again into the languages the old one had (API.md §9.1).
        var translations: (early: [String: String], job: TranslationJob?) = ([:], nil)
        if let text = update.message {
            let now = clock.nowMillis
            let current = try await store.read { try Self.editable(kind, channelURL, messageID, caller, contributingAt: now, $0) }
            let languages = translator.supported((current.translations ?? [:]).keys.sorted())
            if current.type == .user, text != current.message, !languages.isEmpty {
                translations = try await translateBeforeStoring(text, into: languages)
            }
        }
        let now = clock.nowMillis
        let hits = FilterHits(filters: try await filters?.current())
        let changed: Message
        do {
            changed = try await commitUpdate(kind, channelURL, messageID, update, caller, translations, hits, now: now)
        } catch let blocked as MessageFilterSet.Blocked {
            await strike(blocked.strike, caller.userID, kind, channelURL)
            throw blocked.error
        }
        await strike(hits.strike, caller.userID, kind, channelURL)
        return changed
    }

    /// The edit's transaction; a new text passes the channel's message filters first.
    private func commitUpdate(
        _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ unfiltered: MessageUpdate, _ caller: Caller,
        _ translations: (early: [String: String], job: TranslationJob?), _ hits: FilterHits, now: Int64
    ) async throws -> Message {
        try await store.transaction { repositories in
            let current = try Self.editable(kind, channelURL, messageID, caller, contributingAt: now, repositories)
            var update = unfiltered
            if let text = update.message, current.type != .admin, hits.applies {
                update.message = try hits.filter(text: text, customType: try Self.customType(kind, channelURL, repositories))
            }
            // A masked text's translations would carry what was masked.
            let translations: (early: [String: String], job: TranslationJob?) =
                update.message == unfiltered.message ? translations : ([:], nil)
            try repositories.messages.update(messageID, update, now: now)
            if let text = update.message {
                previewAfterCommit(text, by: caller.userID ?? "", channelURL, messageID, repositories)
                _ = try repositories.messages.addTranslations(messageID, translations.early, source: text, now: now)
                if let job = translations.job {
                    storeLateTranslations(job, already: Set(translations.early.keys), channelURL, messageID, source: text, repositories)
                }
            }
            guard let message = try repositories.messages.find(channelURL, messageID, viewerID: caller.userID) else {
                throw Self.notFound(messageID)
            }
            let updated = try MessageDetails.attach(message, repositories)
            ChannelEvents.message(.messageUpdated, updated, repositories)
            return updated
        }
    }

    /// The sender, the channel's operators and the admin delete (`MessageRemoval`; an uploaded
    /// file's bytes go once the removal has committed).
    public func delete(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64) async throws {
        let now = clock.nowMillis
        let files = files
        try await store.transaction { repositories in
            let message = try Self.editable(kind, channelURL, messageID, caller, repositories)
            let fileIDs = try MessageRemoval.remove(message, now: now, repositories)
            // A moderator's deletion is audited; a sender's own is not.
            if message.sender?.userID != caller.userID || caller.isAdmin {
                try ChannelEvents.audit(
                    .messageDeleted, caller, channelURL, kind: kind, targetUserID: message.sender?.userID, messageID: messageID,
                    repositories)
            }
            if !fileIDs.isEmpty { repositories.afterCommit { await files.removeStoredFiles(fileIDs) } }
        }
    }

    /// The message, if the caller may change it: 404 when unseen, hidden from them or removed,
    /// 403 for other members. A change that shows something new (`now` given: an edit, a meta
    /// array change) is also refused while the caller is muted or the channel frozen.
    /// The channel's custom type (which message filters apply).
    static func customType(_ kind: ChannelKind, _ channelURL: String, _ repositories: Repositories) throws -> String {
        try
            (kind == .group
            ? repositories.groupChannels.find(channelURL)?.customType : repositories.openChannels.find(channelURL)?.customType)
            ?? ""
    }

    static func editable(
        _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ caller: Caller, contributingAt now: Int64? = nil,
        _ repositories: Repositories
    ) throws -> Message {
        let context = try ChannelContext.load(kind, channelURL, caller, repositories, forUpdate: false)
        try context.access.requireView(channelURL)
        if let now { try context.requireMayContribute(as: caller.userID, now: now, repositories) }
        guard let message = try repositories.messages.find(channelURL, messageID, viewerID: caller.userID), !message.isRemoved else {
            throw notFound(messageID)
        }
        let isSender = message.sender != nil && message.sender?.userID == caller.userID
        guard isSender || context.access.canManage else {
            throw ParleyError.forbidden("Only the sender and operators may change this message.")
        }
        return message
    }
}
