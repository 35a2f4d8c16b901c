/// Mute and freeze (API.md §7.2, §3.4) cover every way a user puts something in front of a
/// channel's others: a message, an edit, a reaction, a meta array change, a typing indicator.
/// Taking something away (deleting one's message, removing one's reaction, ending typing) stays
/// allowed: it shows nothing new.
public enum ContributionRules {
    /// 403/900041 for a user whose mute is in force; 403/900050 in a frozen channel for all but
    /// its operators and the admin.
    public static func require(isMuted: Bool, channelFrozen: Bool, exemptFromFreeze: Bool) throws {
        if isMuted { throw ParleyError.mutedSender }
        if channelFrozen && !exemptFromFreeze { throw ParleyError.channelFrozen }
    }
}
