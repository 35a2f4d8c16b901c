import ParleyCore
import ParleyStore

/// A message's sorted meta array (API.md §4.5): changed by the sender, operators and the admin;
/// at most 20 keys of 50 values (409/400203 beyond).
public struct MetaArrayService: Sendable {
    let store: Store
    let clock: Clock

    public enum Mode: String, Sendable { case add, remove }

    public init(store: Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// Adds keys (replacing the values of keys that exist).
    public func addKeys(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ entries: [MetaArray])
        async throws -> Message
    {
        try await change(caller, kind, channelURL, messageID) { current in
            var result = current.filter { entry in !entries.contains { $0.key == entry.key } }
            result += entries
            return result
        }
    }

    /// Adds or removes values of keys; with `upsert`, adding to a missing key creates it.
    public func updateValues(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, _ entries: [MetaArray], mode: Mode, upsert: Bool
    )
        async throws -> Message
    {
        try await change(caller, kind, channelURL, messageID) { current in
            var result = current
            for entry in entries {
                if let index = result.firstIndex(where: { $0.key == entry.key }) {
                    switch mode {
                    case .add: result[index].value += entry.value.filter { !result[index].value.contains($0) }
                    case .remove: result[index].value.removeAll { entry.value.contains($0) }
                    }
                } else if mode == .add {
                    guard upsert else { throw ParleyError.notFound("Meta array key \"\(entry.key)\" not found.") }
                    result.append(entry)
                }
            }
            return result
        }
    }

    public func removeKeys(_ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64, keys: [String]) async throws
        -> Message
    {
        try await change(caller, kind, channelURL, messageID) { current in current.filter { !keys.contains($0.key) } }
    }

    private func change(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, _ messageID: Int64,
        _ transform: @escaping @Sendable ([MetaArray]) throws -> [MetaArray]
    ) async throws -> Message {
        let now = clock.nowMillis
        return try await store.transaction { repositories in
            // Access first: a lock is taken only for a message the caller may change, so nobody
            // can hold up others' writes by naming message ids they cannot see.
            _ = try MessageService.editable(kind, channelURL, messageID, caller, contributingAt: now, repositories)
            try repositories.messages.lock(channelURL, messageID)
            let message = try MessageService.editable(kind, channelURL, messageID, caller, repositories)
            let result = try transform(message.sortedMetaarray)
            guard result.count <= Validation.maxMetaArrayKeys, result.allSatisfy({ $0.value.count <= Validation.maxMetaArrayValues }) else {
                throw ParleyError.tooMany(
                    "A meta array holds at most \(Validation.maxMetaArrayKeys) keys of \(Validation.maxMetaArrayValues) values.")
            }
            try repositories.messages.setMetaarray(messageID, result, now: now)
            guard let changed = try repositories.messages.find(channelURL, messageID, viewerID: caller.userID) else {
                throw MessageService.notFound(messageID)
            }
            let updated = try MessageDetails.attach(changed, repositories)
            ChannelEvents.message(.messageUpdated, updated, repositories)
            return updated
        }
    }
}
