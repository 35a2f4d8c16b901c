/// A group channel's own retention (API.md §14.3) as a create or an update sets it; nil fields
/// stay (0: off).
public struct MessagePolicy: Sendable, Equatable {
    /// Its messages are removed this many hours after they were sent.
    public var retentionHours: Int?
    /// Disappearing messages: each is removed this many seconds after every joined member read it.
    public var survivalSeconds: Int?

    public init(retentionHours: Int? = nil, survivalSeconds: Int? = nil) {
        (self.retentionHours, self.survivalSeconds) = (retentionHours, survivalSeconds)
    }

    public var isEmpty: Bool { retentionHours == nil && survivalSeconds == nil }

    public static let maxRetentionHours = 87_600
    public static let maxSurvivalSeconds = 2_592_000
}
