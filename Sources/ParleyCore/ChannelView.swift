/// A channel as one viewer sees it: the channel, the viewer's membership (nil when not a member
/// or no viewer is known), and the members when asked for.
public struct ChannelView: Sendable {
    public let channel: GroupChannel
    public let viewerID: String?
    public let membership: Membership?
    public let members: [Member]?
    /// Joined members, when read or delivery receipts were asked for.
    public let receiptMembers: [Member]?
    public let showReadReceipt: Bool
    public let showDeliveryReceipt: Bool
    /// The newest message the viewer can see.
    public let lastMessage: Message?
    /// The pinned messages' ids, newest pin first, and the newest pinned message the viewer can
    /// see (API.md §13.2); nil where the view was made without them (events' channels).
    public var pinnedMessageIDs: [Int64]?
    public var lastPinnedMessage: Message?

    public init(
        channel: GroupChannel, viewerID: String?, membership: Membership?, members: [Member]?,
        receiptMembers: [Member]? = nil, showReadReceipt: Bool = false, showDeliveryReceipt: Bool = false,
        lastMessage: Message? = nil
    ) {
        self.lastMessage = lastMessage
        self.channel = channel
        self.viewerID = viewerID
        self.membership = membership
        self.members = members
        self.receiptMembers = receiptMembers
        self.showReadReceipt = showReadReceipt
        self.showDeliveryReceipt = showDeliveryReceipt
    }
}
