import ParleyCore
import ParleyStore

/// A channel locked for the current transaction, with what the caller may do to it.
struct ChannelContext {
    let record: GroupChannelRecord
    let access: ChannelAccess

    /// Locks the channel's row (404 when it does not exist) and works out the caller's access.
    static func load(_ channelURL: String, _ caller: Caller, _ repositories: Repositories, forUpdate: Bool = true) throws -> ChannelContext
    {
        guard let record = try repositories.groupChannels.find(channelURL, forUpdate: forUpdate) else {
            throw ChannelAccess.notFound(channelURL)
        }
        let membership = try caller.userID.flatMap { try repositories.groupChannelMembers.state(channelURL, $0) }
        return ChannelContext(
            record: record,
            access: ChannelAccess(
                caller: caller, isPublic: record.isPublic, state: membership?.state, isOperator: membership?.isOperator ?? false)
        )
    }
}

extension Caller {
    /// Whose per-user fields a response carries: the session user, or for the admin the
    /// `user_id` the request names (if any). A session user naming someone else is 403.
    func viewer(named userID: String?) throws -> String? {
        switch self {
        case .admin: return userID
        case .user(let own):
            if let userID, userID != own { throw ParleyError.forbidden("You may not act for user \"\(userID)\".") }
            return own
        }
    }
}
