/// A message's reactions as they stand before one more is added.
public struct ReactionStanding: Sendable {
    public let keys: Int
    public let ownKeys: Int
    public let keyExists: Bool
    public let ownExists: Bool

    public init(keys: Int, ownKeys: Int, keyExists: Bool, ownExists: Bool) {
        self.keys = keys
        self.ownKeys = ownKeys
        self.keyExists = keyExists
        self.ownExists = ownExists
    }

    /// 409/400203 when the reaction would be a key past the message's limit or one past the
    /// user's own; adding a reaction the user already has changes nothing and is always allowed.
    public func requireRoom(_ limits: Limits) throws {
        guard !ownExists else { return }
        if !keyExists && keys >= limits.reactionKeysPerMessage {
            throw ParleyError.tooMany("A message has at most \(limits.reactionKeysPerMessage) different reactions.")
        }
        if ownKeys >= limits.reactionsPerUserPerMessage {
            throw ParleyError.tooMany("A user puts at most \(limits.reactionsPerUserPerMessage) reactions on one message.")
        }
    }
}
