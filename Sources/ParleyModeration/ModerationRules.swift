import ParleyCore
import ParleyStore

/// The questions the chat services ask inside their transactions (API.md §7): may this user
/// join, enter, be added, or send (mute and freeze: `ContributionRules`). The answers read the rows in force at `now`.
public enum ModerationRules {
    /// 403/400750 when any of these users is banned from the channel (join, accept, invite, enter).
    public static func requireNotBanned(
        _ userIDs: [String], _ kind: ChannelKind, _ channelURL: String, now: Int64, _ repositories: Repositories
    ) throws {
        guard !userIDs.isEmpty, !(try repositories.bans.restricted(kind, channelURL, among: userIDs, now: now)).isEmpty else { return }
        throw ParleyError.banned(from: channelURL)
    }

    /// Why a sender who is not a participant of the channel is refused: 403/900100 when banned,
    /// otherwise nil (the caller's own refusal applies).
    public static func bannedSender(_ userID: String, _ kind: ChannelKind, _ channelURL: String, now: Int64, _ repositories: Repositories)
        throws -> ParleyError?
    {
        try repositories.bans.find(kind, channelURL, userID, now: now) == nil ? nil : ParleyError.bannedSender
    }
}
