/// A user as embedded in other resources (API.md §2.1): sender, inviter, creator, operator.
public struct BasicUser: Sendable, Equatable, Codable {
    public let userID: String
    public let nickname: String
    public let profileURL: String
    public let isActive: Bool

    public init(userID: String, nickname: String, profileURL: String, isActive: Bool) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.isActive = isActive
    }
}
