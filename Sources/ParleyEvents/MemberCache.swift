import ParleyStore
import Synchronization

/// The members of the channels a hub delivers to, each kept with the channel's member version
/// (migration 0008) and used while that version holds: a message to a busy channel costs one
/// version row to check rather than all its members to read, on every instance.
///
/// What the hub decides from it is what a fresh read would have given: the version moves in the
/// transaction of every membership change, and it is read before the members, so a copy is
/// never newer than its version says (at worst older, and read again next time).
final class MemberCache: Sendable {
    private let state = Mutex(Entries())
    /// Members kept over all channels; past it the cache starts again (a hub delivering to more
    /// channels than this covers reads more, and stays correct).
    let capacity: Int

    private struct Entries {
        var channels: [String: (version: Int64, members: [ChannelRecipient])] = [:]
        var size = 0
    }

    init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    /// The members of these channels, read from `repositories` where the copy is not current.
    func members(of channelURLs: [String], _ repositories: Repositories) throws -> [String: [ChannelRecipient]] {
        let versions = try repositories.events.memberVersions(channelURLs)
        var members: [String: [ChannelRecipient]] = [:]
        var stale: [String] = []
        state.withLock { entries in
            for channelURL in channelURLs {
                guard let version = versions[channelURL] else { continue }  // no members, ever
                if let entry = entries.channels[channelURL], entry.version == version {
                    members[channelURL] = entry.members
                } else {
                    stale.append(channelURL)
                }
            }
        }
        guard !stale.isEmpty else { return members }
        let read = try repositories.events.recipients(stale)
        state.withLock { entries in
            for channelURL in stale {
                let fresh = read[channelURL] ?? []
                members[channelURL] = fresh
                guard let version = versions[channelURL] else { continue }
                let replaced = entries.channels.updateValue((version, fresh), forKey: channelURL)
                entries.size += fresh.count - (replaced?.members.count ?? 0)
            }
            if entries.size > capacity { entries = Entries() }
        }
        return members
    }
}
