import ParleyCore

/// The settings the channel and message rules depend on.
public struct ChatSettings: Sendable {
    public var limits: Limits
    /// API.md §3.7: when false, a user who joins sees only messages sent after joining.
    public var chatHistory: Bool
    /// API.md §9.2: how long a send with `target_langs` waits for its translations (the rest
    /// follow with `message_updated`).
    public var translationSendLimit: Duration = .milliseconds(1500)
    /// How long any translation may take (on-demand requests, late results of a send).
    public var translationLimit: Duration = .seconds(10)
    /// Whether a session user may name the `channel_url` of a group channel they create (the
    /// seeds do). URLs are one namespace, so a taken URL's 409 tells that someone's private
    /// channel exists; servers whose URLs carry meaning turn this off and URLs are generated.
    public var sessionUsersChooseChannelURLs = true

    public init(limits: Limits, chatHistory: Bool) {
        self.limits = limits
        self.chatHistory = chatHistory
    }

    /// The first message time a member who joins at `now` sees (API.md §3.7).
    func historyOffset(joiningAt now: Int64) -> Int64 {
        chatHistory ? 0 : now
    }

    func memberLimit(isSuper: Bool) -> Int {
        isSuper ? limits.superGroupMembers : limits.groupChannelMembers
    }
}
