import ParleyCore

/// The settings the channel and message rules depend on.
public struct ChatSettings: Sendable {
    public var limits: Limits
    /// API.md §3.7: when false, a user who joins sees only messages sent after joining.
    public var chatHistory: Bool

    public init(limits: Limits, chatHistory: Bool) {
        self.limits = limits
        self.chatHistory = chatHistory
    }

    func memberLimit(isSuper: Bool) -> Int {
        isSuper ? limits.superGroupMembers : limits.groupChannelMembers
    }
}
