import ParleyCore
import Testing

/// `PushAudience`: who receives a new message's push (API.md §12.3), rule by rule.
@Suite struct PushAudienceTests {
    typealias Candidate = PushAudience.Candidate
    static let now: Int64 = 1_800_000_000_000
    static let fromBob = PushAudience.Message(senderID: "bob")

    static func receives(_ candidate: Candidate, _ message: PushAudience.Message = fromBob, windowOpen: Bool = true) -> Bool {
        PushAudience.receives(candidate, message, windowOpen: windowOpen, now: now)
    }

    @Test func anOfflineJoinedMemberWithATokenReceivesIt() {
        #expect(Self.receives(Candidate(userID: "alice")))
        #expect(Self.receives(Candidate(userID: "alice"), PushAudience.Message(senderID: nil)), "an admin message")
    }

    @Test(arguments: [
        ("the sender", Candidate(userID: "bob")),
        ("invited, not joined", Candidate(userID: "alice", isJoined: false)),
        ("no device", Candidate(userID: "alice", hasDeviceTokens: false)),
        ("online somewhere", Candidate(userID: "alice", isOnline: true)),
        ("blocks the sender", Candidate(userID: "alice", blocksSender: true)),
        ("channel off", Candidate(userID: "alice", channelOption: .off)),
        ("mentions only, not mentioned", Candidate(userID: "alice", channelOption: .mentionOnly))
    ])
    func nobodyElseDoes(_ reason: String, _ candidate: Candidate) {
        #expect(!Self.receives(candidate), "\(reason)")
    }

    @Test func aDeletedMessageNeverPushes() {
        #expect(!Self.receives(Candidate(userID: "alice"), PushAudience.Message(senderID: "bob", isRemoved: true)))
    }

    @Test func theChannelOptionOverridesTheUsersAndMentionsPassMentionOnly() {
        var off = PushPreference()
        off.triggerOption = .off
        #expect(!Self.receives(Candidate(userID: "alice", preference: off)))
        #expect(Self.receives(Candidate(userID: "alice", preference: off, channelOption: .all)))
        var mentions = PushPreference()
        mentions.triggerOption = .mentionOnly
        #expect(!Self.receives(Candidate(userID: "alice", preference: mentions)))
        #expect(Self.receives(Candidate(userID: "alice", preference: mentions, isMentioned: true)))
    }

    @Test func quietHoursAndSnoozesHoldPushes() {
        var snoozed = PushPreference()
        snoozed.snoozeEnabled = true
        (snoozed.snoozeStart, snoozed.snoozeEnd) = (Self.now - 1, Self.now + 1)
        #expect(!Self.receives(Candidate(userID: "alice", preference: snoozed)))
        var allDay = PushPreference()
        allDay.doNotDisturb = true
        (allDay.startHour, allDay.endHour, allDay.endMinute) = (0, 23, 59)
        #expect(!Self.receives(Candidate(userID: "alice", preference: allDay, isMentioned: true)), "mentions wait too")
    }

    @Test func aBigSupergroupPushesOncePerWindowExceptToThoseWhoJustRead() {
        let big = PushAudience.Message(senderID: "bob", isSupergroup: true, memberCount: 100)
        let small = PushAudience.Message(senderID: "bob", isSupergroup: true, memberCount: 99)
        #expect(big.isWindowed && !small.isWindowed)
        #expect(Self.receives(Candidate(userID: "alice"), big, windowOpen: true))
        #expect(!Self.receives(Candidate(userID: "alice"), big, windowOpen: false))
        #expect(Self.receives(Candidate(userID: "alice"), small, windowOpen: false), "below 100 every message pushes")
        #expect(Self.receives(Candidate(userID: "alice", readAt: Self.now - 60_000), big, windowOpen: false), "read a minute ago")
        #expect(!Self.receives(Candidate(userID: "alice", readAt: Self.now - 60_001), big, windowOpen: false))
        #expect(PushAudience.windowIsOpen(lastPushAt: nil, now: Self.now))
        #expect(!PushAudience.windowIsOpen(lastPushAt: Self.now - 599_999, now: Self.now))
        #expect(PushAudience.windowIsOpen(lastPushAt: Self.now - 600_000, now: Self.now))
    }
}
