import ParleyCore
import ParleyStore

/// Push preferences (API.md §12.2): a user's (or the admin's for them), per channel for a
/// member, and the template their pushes are written with.
public struct PushPreferenceService: Sendable {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func preference(_ caller: Caller, _ userID: String) async throws -> PushPreference {
        try caller.requireActingAs(userID)
        return try await store.read { repositories in
            try Self.requireUser(userID, repositories)
            return try repositories.pushPreferences.preference(of: userID)
        }
    }

    /// Applies `update`; returns the preferences as they now are.
    public func update(_ caller: Caller, _ userID: String, _ update: PushPreferenceUpdate) async throws -> PushPreference {
        try await changing(caller, userID) { try update.applied(to: $0) }
    }

    /// Back to the defaults.
    public func reset(_ caller: Caller, _ userID: String) async throws -> PushPreference {
        try caller.requireActingAs(userID)
        return try await store.transaction { repositories in
            try Self.requireUser(userID, repositories)
            try repositories.pushPreferences.reset(userID)
            return PushPreference()
        }
    }

    public func chooseTemplate(_ caller: Caller, _ userID: String, _ name: PushTemplateName) async throws -> PushTemplateName {
        try await changing(caller, userID) { preference in
            var chosen = preference
            chosen.template = name
            return chosen
        }.template
    }

    /// The member's option and sound in a group channel; 404 for a channel they are not in.
    public func channelPreference(_ caller: Caller, _ userID: String, _ channelURL: String) async throws -> (
        option: ChannelPushTriggerOption, sound: String
    ) {
        try caller.requireActingAs(userID)
        return try await store.read { repositories in
            guard let preference = try repositories.pushPreferences.channelPreference(channelURL, userID: userID) else {
                throw Self.notAMember(userID, channelURL)
            }
            return preference
        }
    }

    /// Sets the member's option (and sound, when given) in a group channel.
    public func setChannelPreference(
        _ caller: Caller, _ userID: String, _ channelURL: String, option: ChannelPushTriggerOption?, sound: String?
    ) async throws -> (option: ChannelPushTriggerOption, sound: String) {
        try caller.requireActingAs(userID)
        let sound = try sound.map { try Validation.text($0, field: "push_sound", max: 256) }
        return try await store.transaction { repositories in
            guard let current = try repositories.pushPreferences.channelPreference(channelURL, userID: userID) else {
                throw Self.notAMember(userID, channelURL)
            }
            let next = (option: option ?? current.option, sound: sound ?? current.sound)
            _ = try repositories.pushPreferences.setChannelPreference(channelURL, userID: userID, option: next.option, sound: next.sound)
            return next
        }
    }

    private func changing(_ caller: Caller, _ userID: String, _ change: @escaping @Sendable (PushPreference) throws -> PushPreference)
        async throws -> PushPreference
    {
        try caller.requireActingAs(userID)
        return try await store.transaction { repositories in
            try Self.requireUser(userID, repositories, locking: true)
            let changed = try change(try repositories.pushPreferences.preference(of: userID))
            try repositories.pushPreferences.save(changed, for: userID)
            return changed
        }
    }

    private static func requireUser(_ userID: String, _ repositories: Repositories, locking: Bool = false) throws {
        let user = locking ? try repositories.users.findForUpdate(userID) : try repositories.users.find(userID)
        guard user != nil else { throw ParleyError.notFound("User \"\(userID)\" not found.") }
    }

    private static func notAMember(_ userID: String, _ channelURL: String) -> ParleyError {
        ParleyError.notFound("\"\(userID)\" is not a member of group channel \"\(channelURL)\".")
    }
}
