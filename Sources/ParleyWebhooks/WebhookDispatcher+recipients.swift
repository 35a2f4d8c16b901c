import OutboundPolicy
import ParleyCore
import ParleyStore

/// Where a round's deliveries go: the application's webhook, or a bot's callback (API.md §14.8).
struct Recipient: Sendable {
    /// The key of the application's webhook among a round's recipients (bots are keyed by user id,
    /// which is never empty).
    static let webhookKey = ""

    /// Nil when the outbound guard refuses the URL (`refusal` says why).
    let destination: OutboundGuard.Destination?
    let refusal: String?
    /// Standard Webhooks secrets: the webhook's (two during a rotation), or the bot's token.
    let secrets: [String]
    let includeMembers: Bool
    let bot: Bot?
}

extension WebhookDispatcher {
    /// The recipients of claimed deliveries, each URL checked by the outbound guard once per round;
    /// a bot deleted meanwhile has none.
    func recipients(of claimed: [ClaimedWebhookDelivery], webhook: WebhookSettings?, now: Int64) async throws -> [String: Recipient] {
        let botIDs = Array(Set(claimed.compactMap(\.delivery.botUserID)))
        let bots = botIDs.isEmpty ? [] : try await store.read { try $0.bots.find(botIDs) }
        var recipients: [String: Recipient] = [:]
        if let webhook, claimed.contains(where: { $0.delivery.botUserID == nil }) {
            recipients[Recipient.webhookKey] = try await recipient(
                webhook.url, secrets: webhook.signingSecrets(now: now), includeMembers: webhook.includeMembers, bot: nil)
        }
        for bot in bots {
            recipients[bot.user.userID] = try await recipient(
                bot.callbackURL, secrets: [bot.token], includeMembers: bot.showMember, bot: bot)
        }
        return recipients
    }

    /// A refusal is the recipient's (no retry helps); any other failure fails the round, whose
    /// deliveries are due again when their leases run out.
    private func recipient(_ url: String, secrets: [String], includeMembers: Bool, bot: Bot?) async throws -> Recipient {
        do {
            let destination = try await outbound.check(url)
            return Recipient(destination: destination, refusal: nil, secrets: secrets, includeMembers: includeMembers, bot: bot)
        } catch let refusal as OutboundRefusal {
            return Recipient(destination: nil, refusal: "\(refusal)", secrets: secrets, includeMembers: includeMembers, bot: bot)
        }
    }
}
