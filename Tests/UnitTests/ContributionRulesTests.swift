import ParleyCore
import Testing

/// The rules on putting something in front of a channel's others: mute and freeze
/// (`ContributionRules`, API.md §7.2, §3.4) and the reaction limits (`ReactionStanding`, §4.6).
@Suite struct ContributionRulesTests {
    private func contribution(muted: Bool, frozen: Bool, exempt: Bool) -> Int? {
        do {
            try ContributionRules.require(isMuted: muted, channelFrozen: frozen, exemptFromFreeze: exempt)
            return nil
        } catch let error as ParleyError {
            return error.code
        } catch {
            return -1
        }
    }

    @Test func aFreezeStopsAllButOperatorsAndTheAdmin() {
        #expect(contribution(muted: false, frozen: false, exempt: false) == nil)
        #expect(contribution(muted: false, frozen: true, exempt: false) == 900050)
        #expect(contribution(muted: false, frozen: true, exempt: true) == nil)
    }

    /// Being exempt from a freeze does not lift a mute, and a mute is reported first.
    @Test func aMuteStopsEveryoneItCoversFrozenOrNot() {
        #expect(contribution(muted: true, frozen: false, exempt: false) == 900041)
        #expect(contribution(muted: true, frozen: false, exempt: true) == 900041)
        #expect(contribution(muted: true, frozen: true, exempt: false) == 900041)
        #expect(contribution(muted: true, frozen: true, exempt: true) == 900041)
    }

    @Test func refusalsAre403() {
        #expect(throws: ParleyError.mutedSender) {
            try ContributionRules.require(isMuted: true, channelFrozen: false, exemptFromFreeze: false)
        }
        #expect(throws: ParleyError.channelFrozen) {
            try ContributionRules.require(isMuted: false, channelFrozen: true, exemptFromFreeze: false)
        }
        #expect(ParleyError.mutedSender.status == 403 && ParleyError.channelFrozen.status == 403)
    }

    // MARK: Reactions

    private var limits: Limits {
        var limits = Limits()
        limits.reactionKeysPerMessage = 3
        limits.reactionsPerUserPerMessage = 2
        return limits
    }

    private func room(keys: Int, ownKeys: Int, keyExists: Bool, ownExists: Bool) -> Bool {
        (try? ReactionStanding(keys: keys, ownKeys: ownKeys, keyExists: keyExists, ownExists: ownExists).requireRoom(limits)) != nil
    }

    @Test func aNewKeyNeedsRoomOnTheMessage() {
        #expect(room(keys: 2, ownKeys: 0, keyExists: false, ownExists: false))
        #expect(!room(keys: 3, ownKeys: 0, keyExists: false, ownExists: false))
        #expect(!room(keys: 4, ownKeys: 0, keyExists: false, ownExists: false))
        // Joining a key others already use adds no key.
        #expect(room(keys: 3, ownKeys: 0, keyExists: true, ownExists: false))
    }

    @Test func eachUserHasTheirOwnLimitPerMessage() {
        #expect(room(keys: 1, ownKeys: 1, keyExists: true, ownExists: false))
        #expect(!room(keys: 1, ownKeys: 2, keyExists: true, ownExists: false))
        #expect(!room(keys: 2, ownKeys: 2, keyExists: false, ownExists: false))
    }

    /// Adding a reaction one has already is a no-op, allowed even at both limits.
    @Test func repeatingOnesOwnReactionIsAlwaysAllowed() {
        #expect(room(keys: 3, ownKeys: 2, keyExists: true, ownExists: true))
        #expect(room(keys: 9, ownKeys: 9, keyExists: true, ownExists: true))
    }

    @Test func beingOverALimitIs409TooMany() {
        let overKeys = ReactionStanding(keys: 3, ownKeys: 0, keyExists: false, ownExists: false)
        let keysError = #expect(throws: ParleyError.self) { try overKeys.requireRoom(limits) }
        #expect(keysError?.status == 409 && keysError?.code == 400203)
        #expect(keysError?.message.contains("3 different reactions") == true)
        let overOwn = ReactionStanding(keys: 1, ownKeys: 2, keyExists: true, ownExists: false)
        let ownError = #expect(throws: ParleyError.self) { try overOwn.requireRoom(limits) }
        #expect(ownError?.status == 409 && ownError?.code == 400203)
        #expect(ownError?.message.contains("at most 2 reactions") == true)
    }

    @Test func theDocumentedDefaultsApply() {
        let defaults = Limits()
        #expect((try? ReactionStanding(keys: 49, ownKeys: 9, keyExists: false, ownExists: false).requireRoom(defaults)) != nil)
        #expect((try? ReactionStanding(keys: 50, ownKeys: 0, keyExists: false, ownExists: false).requireRoom(defaults)) == nil)
        #expect((try? ReactionStanding(keys: 1, ownKeys: 10, keyExists: true, ownExists: false).requireRoom(defaults)) == nil)
    }
}
