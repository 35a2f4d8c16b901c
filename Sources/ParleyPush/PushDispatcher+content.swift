import ParleyCore
import ParleyFiles
import ParleyStore

/// What each recipient's devices are sent (API.md §12.4), and what the providers' answers
/// write back (§12.6).
extension PushDispatcher {
    /// The recipient's pushes, one per device of a configured provider (for a retry, only the
    /// retried devices).
    func devicePushes(_ candidate: PushCandidate, _ stored: PushMessage, claim: ClaimedPush, templates: [PushTemplate])
        -> [(DevicePush, any PushProvider)]
    {
        let preference = candidate.audience.preference
        let template = templates.first { $0.name == preference.template } ?? templates.first ?? PushDispatcher.fallbackTemplate
        let ownSound = preference.template == .alternative ? preference.alternativeSound : preference.sound
        let fileURL = stored.message.file?.fileID.map { fileID in
            let plain = FileURLs.plain(baseURL: files.baseURL, fileID: fileID)
            guard stored.message.file?.requireAuth == true else { return plain }
            let key = files.keys.issue(userID: candidate.audience.userID, generation: candidate.fileKeyGeneration, now: clock.nowMillis)
            return FileURLs.authorized(plain, auth: key.auth)
        }
        let notice = PushNotice(
            message: stored.message,
            channel: PushNotice.Channel(
                url: stored.message.channelURL, name: stored.channelName, customType: stored.channelCustomType,
                memberCount: stored.joinedMemberCount),
            recipient: PushNotice.Recipient(
                userID: candidate.audience.userID, nickname: candidate.nickname, unreadMessageCount: candidate.unreadMessageCount,
                template: template,
                sound: candidate.channelSound.isEmpty ? ownSound : candidate.channelSound, fileURL: fileURL),
            appID: appID)
        let expiresAt = (claim.createdAt + settings.deliveryLimit.milliseconds) / 1000
        // A retry's read returned only the retried devices.
        return candidate.tokens.compactMap { token in
            providers.byType[token.type].map { (DevicePush(token: token, notice: notice, expiresAt: expiresAt), $0) }
        }
    }

    /// Used only if the templates' table were empty (the migration seeds it).
    static let fallbackTemplate = PushTemplate(
        name: .default, userMessage: "{sender_name}: {message}", fileMessage: "{sender_name}: {filename}", adminMessage: "{message}")

    struct Sent {
        let push: DevicePush
        let claim: ClaimedPush
        let outcome: PushOutcome
        let answeredAt: Int64
    }

    /// Counts the outcomes and turns them into what the round writes back.
    func record(_ sent: [Sent], into outcome: inout PushRoundOutcome, now: Int64) {
        for item in sent {
            let provider = item.push.token.type
            switch item.outcome {
            case .delivered:
                PushMetrics.sent[provider]?.increment()
                PushMetrics.latency[provider]?.recordMilliseconds(item.answeredAt - item.claim.createdAt)
            case .deadToken:
                PushMetrics.tokensRemoved[provider]?.increment()
                outcome.deadTokens.append(item.push.token)
            case .failed(let reason):
                PushMetrics.failed(provider, reason).increment()
            case .retry(let after, let reason):
                PushMetrics.failed(provider, reason).increment()
                let attempts =
                    1 + (item.claim.devices?.first { $0.key == item.push.token.type.rawValue + ":" + item.push.token.token }?.attempts ?? 0)
                let retryAt = now + settings.backoff.delay(afterAttempts: attempts, retryAfter: after).milliseconds
                // Past the limit a retry would only be dropped: it is not written.
                guard retryAt < item.claim.createdAt + settings.deliveryLimit.milliseconds else { continue }
                outcome.retries.append(
                    PushRoundOutcome.Retry(
                        messageID: item.claim.messageID, type: provider.rawValue, token: item.push.token.token,
                        createdAt: item.claim.createdAt,
                        attempts: attempts, nextAttemptAt: retryAt))
            }
        }
    }
}
