import ParleyCore
import Testing

@testable import ParleyEvents

/// `TypingStates` (API.md §6.5): the throttle on passing typing starts on, and when typing ends.
/// Instants are a fixed origin plus explicit offsets; nothing sleeps.
@Suite struct TypingStatesTests {
    let origin = ContinuousClock.now
    let alice = EventFixtures.user("alice")
    let inC1 = TypingStates.Key(channelURL: "c1", userID: "alice")

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        origin + .milliseconds(Int64(seconds * 1000))
    }

    private func states() -> TypingStates {
        TypingStates(expiry: .seconds(10), throttle: .seconds(3))
    }

    @Test func startsArePassedOnAtMostOncePerThrottle() {
        var typing = states()
        let passed = [0, 1, 2.999, 3, 6].map { typing.admitStart(inC1, now: at($0)) }
        // 3 s after the first start passes although starts were refused meanwhile: refusals do not
        // move the throttle's origin.
        #expect(passed == [true, false, false, true, true])
    }

    @Test func theThrottleIsPerUserAndChannel() {
        var typing = states()
        let keys = [inC1, .init(channelURL: "c2", userID: "alice"), .init(channelURL: "c1", userID: "bob"), inC1]
        let passed = keys.map { typing.admitStart($0, now: at(0)) }
        #expect(passed == [true, true, true, false])
    }

    /// A start from another instance counts as the user's last start here too.
    @Test func aStartHeardFromAnyInstanceThrottles() {
        var typing = states()
        _ = typing.started(alice, in: "c1", now: at(0), ts: 1)
        let passed = [2, 3].map { typing.admitStart(inC1, now: at($0)) }
        #expect(passed == [false, true])
    }

    @Test func onlyTheFirstStartIsAnnounced() {
        var typing = states()
        #expect(typing.started(alice, in: "c1", now: at(0), ts: 1) == TypingChange(channelURL: "c1", user: alice, started: true, ts: 1))
        #expect(typing.started(alice, in: "c1", now: at(4), ts: 2) == nil)
    }

    @Test func endingIsAnnouncedOnceAndOnlyForWhoIsTyping() {
        var typing = states()
        #expect(typing.ended(inC1, ts: 1) == nil)
        _ = typing.started(alice, in: "c1", now: at(0), ts: 1)
        #expect(typing.ended(inC1, ts: 2) == TypingChange(channelURL: "c1", user: alice, started: false, ts: 2))
        #expect(typing.ended(inC1, ts: 3) == nil)
        // Ended, the next start is announced again.
        #expect(typing.started(alice, in: "c1", now: at(1), ts: 4)?.started == true)
    }

    @Test func typingExpiresTenSecondsAfterTheLastStart() {
        var typing = states()
        _ = typing.started(alice, in: "c1", now: at(0), ts: 1)
        _ = typing.started(alice, in: "c1", now: at(5), ts: 2)  // renewed
        #expect(typing.expired(now: at(14.999), ts: 3).isEmpty)
        #expect(typing.expired(now: at(15), ts: 4) == [TypingChange(channelURL: "c1", user: alice, started: false, ts: 4)])
        #expect(typing.expired(now: at(30), ts: 5).isEmpty)
    }

    @Test func aUserGoingOfflineEndsAllTheirTyping() {
        var typing = states()
        let bob = EventFixtures.user("bob")
        _ = typing.started(alice, in: "c1", now: at(0), ts: 1)
        _ = typing.started(alice, in: "c2", now: at(0), ts: 1)
        _ = typing.started(bob, in: "c1", now: at(0), ts: 1)
        let ended = typing.endedAll(of: "alice", ts: 9)
        #expect(Set(ended.map(\.channelURL)) == ["c1", "c2"])
        #expect(ended.allSatisfy { $0.user == alice && !$0.started && $0.ts == 9 })
        #expect(typing.ended(.init(channelURL: "c1", userID: "bob"), ts: 10) != nil, "bob still typing")
    }
}
